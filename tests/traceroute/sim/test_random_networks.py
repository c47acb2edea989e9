"""Random configurations (loops, dangling names, wrong types, missing xmitqs, stopped
channels, clusters) never break name resolution, the audit or a simulated trace: each gives
a result or an MQRC_* reason, never an exception (issue 17, classes 5 and 14 as a class)."""

from __future__ import annotations

import contextlib
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from graph.audit import audit
from mqroute.main import main
from traceroute.sim.mqsc import MQSCError, parse_mqsc
from traceroute.sim.resolve import resolve

QMGRS = ["QM1", "QM2", "QM3"]
NAMES = ["A", "B", "C", "XQ", "DLQ", "R", *QMGRS]


def _definition() -> st.SearchStrategy[str]:
    name, qmgr = st.sampled_from(NAMES), st.sampled_from(QMGRS)
    return st.one_of(
        st.builds(lambda n, u: f"DEFINE QLOCAL({n}) {u} REPLACE", name,
                  st.sampled_from(["", "USAGE(XMITQ)", "PUT(DISABLED)", "MAXDEPTH(1)",
                                   "CLUSTER(CL)"])),
        st.builds(lambda n, rn, rq, x: f"DEFINE QREMOTE({n}) RNAME('{rn}') RQMNAME('{rq}') "
                                       f"{x} REPLACE",
                  name, st.sampled_from([*NAMES, " "]), st.sampled_from([*NAMES, " "]),
                  st.sampled_from(["", "XMITQ(XQ)", "XMITQ(A)", "XMITQ(QM2)"])),
        st.builds(lambda n, t: f"DEFINE QALIAS({n}) TARGET({t}) REPLACE", name, name),
        st.builds(lambda a, b, t: f"DEFINE CHANNEL({a}.{b}) CHLTYPE({t}) CONNAME('h') "
                                  f"XMITQ({b if t in ('SDR', 'SVR') else 'XQ'}) CLUSTER(CL) "
                                  "REPLACE",
                  qmgr, qmgr, st.sampled_from(["SDR", "RCVR", "CLUSSDR", "CLUSRCVR"])),
        st.builds(lambda a: f"ALTER QMGR {a}",
                  st.sampled_from(["DEADQ(DLQ)", "DEFXMITQ(XQ)", "DEFXMITQ(A)", "REPOS(CL)",
                                   "ROUTEREC(DISABLED)", "CMDLEVEL(500)"])),
        st.builds(lambda a, b: f"STOP CHANNEL({a}.{b})", qmgr, qmgr),
    )


networks = st.lists(st.lists(_definition(), max_size=8), min_size=3, max_size=3).map(
    lambda per_qmgr: "\n".join(f"* Queue manager name: {qm}\nDEFINE QLOCAL(R) REPLACE\n"
                               + "\n".join(defs) for qm, defs in zip(QMGRS, per_qmgr, strict=True)))


@settings(max_examples=150, deadline=None)
@given(networks)
def test_every_name_resolves_or_fails_with_a_reason(text):
    try:
        network = parse_mqsc(text)
    except MQSCError:
        return  # e.g. REPLACE across queue types: reported, not this test's business
    for qmgr in QMGRS:
        for queue in NAMES:
            for target in ["", *QMGRS, "A"]:
                r = resolve(network, qmgr, queue, target)
                assert r.ok or 2000 < r.reason < 3000
    for f in audit(network, []):
        assert f.objects and f.detail


@settings(max_examples=25, deadline=None)
@given(networks, st.sampled_from(QMGRS), st.sampled_from(NAMES),
       st.sampled_from([[], ["-qm", "QM2"], ["-d", "yes"], ["-ac", "-ar"], ["-s", "4"]]))
def test_a_trace_on_any_network_ends_with_a_verdict_or_a_reason(tmp_path_factory, text,
                                                                qmgr, queue, extra):
    path = tmp_path_factory.mktemp("net") / "net.mqsc"
    path.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(["trace", "--network", str(path), "-m", qmgr, "-q", queue, "-rq", "R",
                       "-xs", "5", "-w", "20", "-v", "all", *extra])
    assert status in (0, 2, 3, 4, 5, 6)
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue()
