"""`sim runmqsc` on an estate answers as runmqsc does on a queue manager: the AMQ message of
each command (AMQ8147E not found, AMQ8148E in use, AMQ8143E not empty ...), the rest still
run, and the closing summary. In process (the CLI's own tests run it by subprocess)."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources

import pytest

from pcf.mqmd import MQMD
from traceroute.sim.estate import Estate
from traceroute.sim.estate.runmqsc import run_mqsc
from traceroute.sim.mqsc import parse_mqsc

T0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def estate(tmp_path):
    path = tmp_path / "estate"
    Estate.create(path, parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()), now=T0)
    return path


def _run(path, qmgr: str, text: str):
    with Estate.open(path, now=T0) as e:
        return run_mqsc(e, qmgr, text)


def _answers(result) -> list[list[str]]:
    """Each command's lines after its echo (the blank line closes a command)."""
    out, current = [], None
    for line in result.lines:
        if line[:6].strip().isdigit() and line[6:9] == " : ":
            current = []
            out.append(current)
        elif current is not None and line:
            current.append(line)
        elif not line:
            current = None
    return out


def test_an_open_queue_cannot_be_cleared_or_deleted_and_other_types_are_not_found(estate):
    with Estate.open(estate, now=T0) as e:  # a message on the xmitq: its channel runs
        assert e.sim.put("QM1", "TARG.AT.QM2", MQMD(), b"x").ok
    result = _run(estate, "QM1", "DISPLAY QSTATUS(QM2) TYPE(HANDLE)\nCLEAR QLOCAL(QM2)\n"
                                 "DELETE QLOCAL(QM2)\nCLEAR QLOCAL(TARG.AT.QM2)\n"
                                 "DISPLAY QSTATUS(TARG.AT.QM2)\nSTOP CHANNEL(QM1.TO.QM2)\n"
                                 "CLEAR QLOCAL(QM2)\nDELETE QLOCAL(QM2)\n")
    answers = _answers(result)
    assert answers[0][0] == "AMQ8450I: Display queue status details."  # the sender's MCA
    assert answers[1][0] == answers[2][0] == "AMQ8148E: IBM MQ object in use."
    assert answers[1][1].startswith("(QM2 is open: IPPROCS(1) OPPROCS(0)")
    # a queue of another type: not found, as DELETE/ALTER QLOCAL of one say
    assert answers[3][0] == "AMQ8147E: IBM MQ object TARG.AT.QM2 not found."
    assert answers[4][0] == "AMQ8147E: IBM MQ object TARG.AT.QM2 not found."
    assert "MQRCCF_Q_WRONG_TYPE (4007)" in answers[4][1]
    assert answers[5] == ["AMQ8019I: Stop IBM MQ channel accepted."]
    assert answers[6] == ["AMQ8022I: IBM MQ queue cleared."]
    assert answers[7] == ["AMQ8007I: IBM MQ queue deleted."]
    assert result.lines[-3:] == ["8 MQSC commands read.", "No commands have a syntax error.",
                                 "4 valid MQSC commands could not be processed."]
    assert not result.ok


def test_display_qmstatus_says_the_queue_manager_runs_since_the_estate_began(tmp_path):
    path = tmp_path / "estate"
    Estate.create(path, parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()), now=T0)
    later = datetime(2026, 11, 28, 15, 30, 0, tzinfo=UTC)
    with Estate.open(path, now=later) as e:
        result = run_mqsc(e, "QM1", "DISPLAY QMSTATUS\nDISPLAY QMSTATUS CONNS STARTDA STARTTI\n"
                                    "DISPLAY QMSTATUS ALL\n")
    short, chosen, every = _answers(result)
    assert short[0] == "AMQ8705I: Display Queue Manager Status Details."
    assert short[1].split() == ["QMNAME(QM1)", "STATUS(RUNNING)"]
    words = " ".join(chosen).split()
    assert "STARTDA(2026-11-28)" in words and "STARTTI(12.00.00)" in words  # not 15.30
    assert any(w.startswith("CONNS(") for w in words)
    assert "CHINIT" not in " ".join(chosen)
    words = " ".join(every).split()
    assert {"CHINIT(RUNNING)", "CMDSERV(RUNNING)", "INSTNAME(Installation1)"} <= set(words)
    assert result.failed == 0
