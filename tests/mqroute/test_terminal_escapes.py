"""No control character from data reaches a terminal; a name never forges a line.

Every text-printing command reads a simulated day whose every name ends in ESC/CSI/OSC
sequences, a C1 CSI, a carriage return, a bidi override, a NUL and a line break followed by a
forged line (tests/support/hostile.py). Whatever the command prints, on standard output or
error, in text or JSON: no raw control character but the line breaks and tabs of its own
layout; no line that the data started; the names still shown (escaped as `\\u001b` ...);
every JSON line still JSON, holding the names exactly as the data had them.
"""

from __future__ import annotations

import json

import pytest

from mqroute.main import COMMANDS, main
from pcf import dmpmqmsg
from pcf.text import is_printable
from tests.support.hostile import EXAMPLE, FORGED, TAIL, hostile_day, rename


def one_line(name: str) -> str:
    """A hostile name that MQSC and CSV lines can hold: the tail without its line break."""
    return rename(name).replace("\n", " ")

ESCAPED = "\\u001b[31m"   # how the tail's first control is shown


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    files = {}
    for kind, messages in hostile_day().items():
        path = folder / f"{kind}.dmp"
        dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, d) for md, d in messages])
        files[kind] = str(path)
    mqsc = folder / "QM1.mqsc"
    q = one_line("ORDERS.IN")
    mqsc.write_text("ALTER QMGR PERFMEV(ENABLED)\n"
                    f"DEFINE QLOCAL('{q}') MAXDEPTH(2) QDPHIEV(ENABLED) QDPMAXEV(ENABLED)\n"
                    f"DEFINE QREMOTE('{one_line('TO.QM9')}') RNAME('{q}') RQMNAME('QM9') "
                    "XMITQ('QM9')\n"
                    f"DEFINE CHANNEL('{one_line('QM1.TO.QM9')}') CHLTYPE(SDR) "
                    "CONNAME('h(1)') XMITQ('QM9')\n"
                    f"DEFINE CFSTRUCT('{one_line('APP1')}') CFLEVEL(5) OFFLOAD(SMDS)\n",
                    encoding="utf-8")
    files["mqsc"] = str(mqsc)
    ops = folder / "ops.csv"
    ops.write_text("time_ms,qmgr,queue,op,count\n"
                   f'0,QM1,"{one_line("ORDERS.IN")}",PUT,5\n'
                   f'10,QM1,"{one_line("NO.SUCH.Q")}",PUT,1\n', encoding="utf-8")
    files["ops"] = str(ops)
    pytest.importorskip("pyarrow")
    from tests.graph.report.test_report import analyze_output
    from tests.graph.report.test_report_hostile import tamper

    out = analyze_output(folder / "analyzed", with_events=True)
    tamper(out, TAIL)
    files["analyzed"] = str(out)
    example = folder / "qm1_qm2.mqsc"
    example.write_text(EXAMPLE, encoding="utf-8")
    files["example"] = str(example)
    files["estate"] = str(folder / "estate")
    return files


def runs(f: dict[str, str]) -> list[list[str]]:
    every = [f["reports"], f["trace"], f["stats"], f["events"]]
    return [
        ["decode", *every], ["decode", "--json", *every],
        ["show", f["reports"]], ["show", f["reports"], "-v", "all"],
        ["show", "--json", f["reports"]], ["show", f["reports"], "--events", f["events"]],
        ["follow", f["trace"]], ["follow", f["trace"], "-v"], ["follow", "--json", f["trace"]],
        ["follow", f["trace"], "--events", f["events"]],
        ["stats", f["stats"]], ["stats", "--json", f["stats"]],
        ["events", f["events"]], ["events", "--json", f["events"]],
        ["audit", "--mqsc", f["mqsc"]], ["audit", "--json", "--mqsc", f["mqsc"]],
        ["trace", "--network", f["mqsc"], "-m", "QM1", "-q", one_line("TO.QM9"), "-w", "1"],
        ["trace", "--network", f["mqsc"], "-m", "QM1", "-q", one_line("ORDERS.IN"), "-v",
         "all", "-d", "yes"],
        ["cfstruct", "--mqsc", f["mqsc"], "--name", one_line("APP1")],
        ["events", "replay", "--mqsc", f["mqsc"], "--ops", f["ops"]],
        ["events", "replay", "--mqsc", f["mqsc"], "--ops", f["ops"], "--json"],
        [*(["metrics", "--stats", f["stats"], "--textfile", f["stats"] + ".prom"])],
        ["report", f["stats"]],
        ["report", f["analyzed"], "-o", f["analyzed"] + ".html"],
        ["audit", "--mqsc", f["example"], "--observed", f["analyzed"]],
        ["audit", "--mqsc", f["example"], "--observed", f["analyzed"], "--json"],
        ["analyze", f["reports"] + rename(".missing"), "--out", f["reports"] + ".out"],
        ["smf", f["reports"] + rename(".missing"), f["reports"]],
        ["sim", "init", f["estate"], f["mqsc"]],
        ["sim", "init", f["estate"], f["example"]],
        ["sim", "put", f["estate"], "-m", "QM1", "-q", one_line("NO.SUCH.Q")],
        ["sim", "get", f["estate"], "-m", "QM1", "-q", "QM9", "--browse"],
        ["status", "--network", f["mqsc"], "-m", "QM1", "--system"],
        ["status", "--network", f["mqsc"], "-m", "QM1", "--json"],
        ["status", "--network", f["mqsc"], "-m", "QM1", "--queue", one_line("NO.SUCH.Q")],
        ["config", "--network", f["mqsc"], "-m", "QM1"],
        ["trace", "--network", f["estate"], "-m", "QM1", "-q", one_line("TO.QM9")],
    ]


def check(words: list[str], out: str, err: str) -> None:
    for stream, text in (("stdout", out), ("stderr", err)):
        assert is_printable(text, keep="\n\t"), (words, stream, [
            line for line in text.splitlines() if not is_printable(line, keep="\t")][:3])
        forged = [line for line in text.splitlines() if line.startswith(FORGED)]
        assert not forged, (words, stream, forged[:3])
    if "--json" in words:
        for line in out.splitlines():
            if line.strip():
                json.loads(line)


def test_every_text_output_escapes_names(inputs, capsys):
    shown = 0
    for words in runs(inputs):
        main(words)
        out, err = capsys.readouterr()
        check(words, out, err)
        if "--json" not in words and ESCAPED in out:
            shown += 1
    assert shown >= 8    # the names were printed (escaped), not dropped


def test_json_keeps_the_names_exactly(inputs, capsys):
    main(["show", "--json", inputs["reports"]])
    routes = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = {op.get("queue_manager") for r in routes for a in r["activities"]
             for op in a["operations"]}
    assert f"QM1{TAIL}" in names
    main(["events", "--json", inputs["events"]])
    values = [v for line in capsys.readouterr().out.splitlines()
              for v in strings(json.loads(line))]
    assert any(v.endswith(TAIL) for v in values)


def strings(value) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_every_subcommand_is_checked(inputs):
    """A new subcommand must be added to `runs` (its text output escaped like the rest)."""
    covered = {words[0] for words in runs(inputs)}
    missing = [c for c in COMMANDS if c not in covered]
    assert not missing, f"subcommands without a hostile-names run: {missing}"


def test_every_graph_form_of_hostile_names(inputs, tmp_path, capsys):
    """--graph in every form from the hostile day: well-formed, the names kept apart."""
    import xml.etree.ElementTree as ET

    pytest.importorskip("pygraphviz")
    for suffix in (".svg", ".graphml", ".json", ".png", ".pdf"):
        out = tmp_path / f"g{suffix}"
        assert main(["show", inputs["reports"], "--graph", str(out)]) == 0
        err = capsys.readouterr().err
        assert "not drawn" not in err and out.stat().st_size > 500, (suffix, err)
        data = out.read_bytes()
        if suffix in (".svg", ".graphml"):
            root = ET.fromstring(data)          # well-formed XML
            text = "".join(root.itertext()) + " ".join(
                v for e in root.iter() for v in e.attrib.values())
            assert is_printable(text, keep="\n\t") and "\\u001b[31m" in text, suffix
        elif suffix == ".json":
            names = strings(json.loads(data))
            assert any(n.endswith(TAIL) for n in names)
