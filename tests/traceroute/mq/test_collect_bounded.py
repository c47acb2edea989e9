"""A message going round a loop of queue managers (X on QM1 -> Y on QM2 -> X on QM1) makes
a report per hop until it expires; collecting them must stay linear: routes are rebuilt
when the queues fall quiet or the records double, not once per report."""

from __future__ import annotations

import importlib

from mqroute.main import main

collect_module = importlib.import_module("traceroute.mq.collect")

LOOP = """\
* Queue manager name: QM1
DEFINE QREMOTE(X) RNAME(Y) RQMNAME(QM2) XMITQ(QM2)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(SDR) CONNAME('qm2') XMITQ(QM2)
DEFINE CHANNEL(QM2.QM1) CHLTYPE(RCVR)
DEFINE QLOCAL(R)
* Queue manager name: QM2
DEFINE QREMOTE(Y) RNAME(X) RQMNAME(QM1) XMITQ(QM1)
DEFINE QLOCAL(QM1) USAGE(XMITQ)
DEFINE CHANNEL(QM2.QM1) CHLTYPE(SDR) CONNAME('qm1') XMITQ(QM1)
DEFINE CHANNEL(QM1.QM2) CHLTYPE(RCVR)
"""


def test_a_looping_message_is_collected_in_linear_work(tmp_path, monkeypatch, capsys):
    path = tmp_path / "loop.mqsc"
    path.write_text(LOOP)
    calls, sizes = [], []
    real = collect_module.build_routes

    def counted(records, *more, **named):  # (records, destinations)
        calls.append(1)
        sizes.append(len(records))
        return real(records, *more, **named)

    monkeypatch.setattr(collect_module, "build_routes", counted)
    status = main(["trace", "--network", str(path), "-m", "QM1", "-q", "X", "-rq", "R",
                   "-xs", "10", "-v", "none"])
    assert status != 0 and "Traceback" not in capsys.readouterr().err
    reports = max(sizes)
    assert reports > 50  # the message went round many times
    assert sum(sizes) <= 4 * reports  # doubling: geometric, not one rebuild per report
