"""`mqroute show`: routes from dump files, bad input reported, nothing else lost."""

from __future__ import annotations

import json

from mqroute.main import main
from pcf import dmpmqmsg
from tests.support import dspmqrte_examples as ex


def _dump(tmp_path, messages, name="reports.dmp"):
    path = tmp_path / name
    path.write_text(dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, d) for md, d in messages]),
                    encoding="latin-1")
    return path


def test_show_outline_of_example3(tmp_path, capsys):
    path = _dump(tmp_path, ex.reports(ex.trace_md(), [1, 0]))
    assert main(["show", str(path), "-v", "outline", "identifiers"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Route of message X'414D51204C4152474551202020202020A3C9154220001502'")
    assert "incomplete" in out[0] and "bound for queue manager 'QM2'" in out[0]
    body = [line.strip() for line in out[1:] if not line.startswith("note")]
    assert body[:-1] == [line.strip() for line in ex.EXAMPLE3.splitlines()]


def test_show_json_documents(tmp_path, capsys):
    md = ex.trace_md()
    other = ex.trace_md()
    other.msg_id = ex.PREFIX + b"\x77"
    path = _dump(tmp_path, ex.reports(md, [0, 1, 2]) + ex.reports(other, [0]))
    assert main(["show", str(path), "--json"]) == 0
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(docs) == 2
    first = docs[0]
    assert first["correl_id"] == md.msg_id.hex()
    assert first["verdict"] == "discarded_at_target" and first["complete"] is True
    assert first["last_known_location"]["queue_manager"] == "QM2"
    assert first["last_known_location"]["queue"] == "TARGET.Q"
    ops = first["activities"][1]["operations"]
    assert [o["operation"] for o in ops] == ["Get", "Send"]
    assert ops[1]["channel"] == "QM1.TO.QM2" and ops[1]["channel_type"] == "Sender"
    assert first["activities"][2]["operations"][1]["feedback"] == "NotDelivered"
    assert first["activities"][0]["trace_route"]["recorded_activities"] == 1
    assert docs[1]["verdict"] == "waiting_on_xmitq"


def test_show_gap_in_json(tmp_path, capsys):
    path = _dump(tmp_path, ex.reports(ex.trace_md(), [2]))
    assert main(["show", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["activities"][0] == {"unavailable": True, "missing": 2, "unrecorded": 0,
                                    "discontinuities": 0}


def test_corrupt_report_among_good_ones(tmp_path, capsys):
    good = ex.reports(ex.trace_md(), [0, 1, 2])
    md, data = good[1]
    corrupt = (md, data[:100] + b"\xff\xff\xff\x7f" + data[104:])
    path = _dump(tmp_path, [good[0], corrupt, good[2]])
    text = path.read_text(encoding="latin-1")
    path.write_text(text + "A ZZZ broken line\n\n" + text.split("\n\n", 1)[1],
                    encoding="latin-1")
    assert main(["show", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    errors = captured.err.splitlines()
    assert any(str(path) in e and "offset" in e for e in errors)  # the corrupt report
    bad_line = text.count("\n") + 1
    assert f"mqroute: {path}:{bad_line}: unknown descriptor code 'ZZZ'" in errors
    (doc,) = [json.loads(line) for line in captured.out.splitlines()]
    assert doc["records"] == 4  # the good reports, twice over, were all used
    assert doc["activities"][1] == {"unavailable": True, "missing": 1, "unrecorded": 0,
                                    "discontinuities": 0}


def test_correl_id_filter_and_nothing_found(tmp_path, capsys):
    path = _dump(tmp_path, ex.reports(ex.trace_md(), [0]))
    assert main(["show", str(path), "-i", "00" * 24]) == 1
    assert "no activity data" in capsys.readouterr().err
    assert main(["show", str(path), "-i", ex.TRACE_MSG_ID.hex()]) == 0


def test_bad_verbosity(tmp_path, capsys):
    path = _dump(tmp_path, ex.reports(ex.trace_md(), [0]))
    assert main(["show", str(path), "-v", "outline", "colours"]) == 2  # a usage error
    assert "display options" in capsys.readouterr().err
