"""Numeric MQSC attributes as a queue manager takes them: every attribute with a documented
range (`traceroute.status.attributes.numbers`) at its lowest and highest value is applied;
one below, one above, a 5,000-digit number and a word that is not a number make that
command (and only that one) fail as runmqsc does, naming file, line, column and the
attribute -- through `Session`, `mqroute audit --mqsc` and `mqroute sim runmqsc`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from traceroute.sim.crtmqm import (
    CHANNEL_DEFAULTS,
    KNOWN_KEYWORDS,
    QMGR_DEFAULTS,
    SYSTEM_OBJECTS,
    TYPE_DEFAULTS,
)
from traceroute.sim.mqsc import OK, SYNTAX, Session, to_mqsc
from traceroute.sim.mqsc.syntax import SYNTAX_ERROR
from traceroute.sim.network import QUEUE_KINDS
from traceroute.status.attributes import number_problem, numbers

KINDS = (*QUEUE_KINDS, "CHANNEL", "QMGR", "TOPIC", "SUB", "LISTENER", "COMMINFO",
         "AUTHINFO")


def _setup(kind: str, keyword: str) -> tuple[str, str] | None:
    """(MQSC defining an object that has `keyword`, the head of an ALTER of it); None
    when `kind` has no such keyword."""
    if kind == "QMGR":
        return "", "ALTER QMGR"
    if kind == "CHANNEL":
        chltype = next((t for t, (_, attrs) in CHANNEL_DEFAULTS.items() if keyword in attrs),
                       None)
        if chltype is None:
            return None
        return f"DEFINE CHANNEL(C1) CHLTYPE({chltype})\n", "ALTER CHANNEL(C1)"
    if keyword not in KNOWN_KEYWORDS.get(kind, ()):
        return None
    extra = {"AUTHINFO": " AUTHTYPE(IDPWOS)", "TOPIC": " TOPICSTR('a/b')",
             "SUB": " TOPICSTR('a/b') DEST(SYSTEM.DEFAULT.LOCAL.QUEUE)",
             "LISTENER": " TRPTYPE(TCP)"}.get(kind, "")
    return f"DEFINE {kind}(OBJ1){extra}\n", f"ALTER {kind}(OBJ1)"


CASES = [(kind, keyword) for kind in KINDS for keyword in sorted(numbers(kind))
         if _setup(kind, keyword) is not None]


def _value(kind: str, keyword: str, session: Session) -> str | None:
    qm = session.network.qmgrs["QM1"]
    if kind == "QMGR":
        return qm.attrs.get(keyword)
    if kind == "CHANNEL":
        return qm.channels["C1"].get(keyword)
    if kind in QUEUE_KINDS:
        return qm.queues["OBJ1"].get(keyword)
    return qm.others[(kind, "OBJ1")].attrs.get(keyword)


def _run(kind: str, keyword: str, value: str) -> tuple[Session, list]:
    define, alter = _setup(kind, keyword)  # type: ignore[misc]
    session = Session(qmgr="QM1")
    outcomes = session.run(f"{define}{alter} {keyword}({value})\nDEFINE QLOCAL(AFTER)\n",
                           "conf.mqsc")
    return session, outcomes


def test_every_kind_has_numbers_checked():
    assert {kind for kind, _ in CASES} == set(KINDS)
    assert len(CASES) >= 80


@pytest.mark.parametrize(("kind", "keyword"), CASES)
@pytest.mark.parametrize("end", ["low", "high"])
def test_the_ends_of_the_range_are_taken(kind, keyword, end):
    low, high = numbers(kind)[keyword].limits  # type: ignore[misc]
    value = str(low if end == "low" else high)
    session, outcomes = _run(kind, keyword, value)
    assert [o.status for o in outcomes] == [OK] * len(outcomes), outcomes[-2].located
    assert _value(kind, keyword, session) == value


@pytest.mark.parametrize(("kind", "keyword"), CASES)
@pytest.mark.parametrize("bad", ["below", "above", "5000 digits", "word", "empty"])
def test_a_value_mq_refuses_fails_that_command_only(kind, keyword, bad):
    a = numbers(kind)[keyword]
    low, high = a.limits  # type: ignore[misc]
    value = {"below": str(low - 1), "above": str(high + 1), "5000 digits": "9" * 5000,
             "word": "LOTS", "empty": ""}[bad]
    session, outcomes = _run(kind, keyword, value)
    before = None if kind == "QMGR" else _value(kind, keyword, session)
    *setup, failed, after = outcomes
    assert all(o.status == OK for o in setup) and after.status == OK  # the rest applied
    assert failed.status == SYNTAX and failed.message == SYNTAX_ERROR
    e = failed.error
    line = 2 if setup else 1
    head = len(_setup(kind, keyword)[1])  # type: ignore[index]
    assert (e.source, e.line, e.column) == ("conf.mqsc", line, head + 2 + len(keyword))
    assert e.reason.startswith(f"{keyword}(")
    assert ("not a number" if bad in ("word", "empty") else "out of range") in e.reason
    assert f"takes {low} to {high}" in e.reason
    assert len(e.reason) < 200  # a 5,000-digit value is cut in the message
    assert failed.located.startswith(f"conf.mqsc:{line}:{head + 2 + len(keyword)}: AMQ8405I")
    if kind == "QMGR":
        assert session.network.qmgrs["QM1"].attrs.get(keyword) != value
    else:
        assert _value(kind, keyword, session) == before != value
    assert session.summary()[1] == "One command has a syntax error."


@pytest.mark.parametrize(("kind", "keyword"), [c for c in CASES if c[0] != "QMGR"])
def test_define_with_a_bad_value_defines_nothing(kind, keyword):
    define, _ = _setup(kind, keyword)  # type: ignore[misc]
    low = numbers(kind)[keyword].limits[0]  # type: ignore[index]
    text = define.rstrip("\n") + f" {keyword}({low - 1})\n"
    session = Session(qmgr="QM1")
    (outcome,) = session.run(text)
    assert outcome.status == SYNTAX and keyword in outcome.error.reason
    qm = session.network.qmgrs["QM1"]
    assert "C1" not in qm.channels and "OBJ1" not in qm.queues
    assert (kind, "OBJ1") not in qm.others


def test_words_an_attribute_takes_are_not_numbers_and_are_taken():
    session = Session(qmgr="QM1")
    outcomes = session.run("DEFINE CHANNEL(C1) CHLTYPE(SDR) KAINT(auto)\n"
                           "DEFINE QLOCAL(Q) CAPEXPRY(NOLIMIT) MAXFSIZE(DEFAULT)\n"
                           "ALTER QMGR MAXPROPL(NOLIMIT) IMGLOGLN(OFF)\n"
                           "DEFINE QLOCAL(R) MAXDEPTH(007)\n")
    assert all(o.status == OK for o in outcomes), [o.located for o in outcomes]


def test_other_commands_and_other_attributes_are_not_checked():
    session = Session(qmgr="QM1")
    outcomes = session.run("DEFINE QLOCAL(Q) DESCR('MAXDEPTH(ABC)')\n"
                           "DISPLAY QLOCAL(Q) WHERE(MAXDEPTH GT 5)\n")
    assert [o.status for o in outcomes] == [OK, "skipped"]


def test_every_settable_number_has_a_range():
    """No numeric attribute MQSC can set escapes the check: every settable INT attribute of
    the definition tables, and every crtmqm default that is a number, has a range."""
    from traceroute.status.attributes import INT, TABLES

    for kind in (*QUEUE_KINDS, "CHANNEL", "QMGR", "TOPIC", "SUB"):
        assert [k for k, a in TABLES[kind].items() if a.kind == INT and not a.readonly
                and a.limits is None] == [], kind
    defaults = [(kind, attrs) for (kind, _), (_, attrs) in TYPE_DEFAULTS.items()]
    numeric = {(kind, k) for kind, attrs in [*defaults, ("QMGR", QMGR_DEFAULTS)]
               for k, v in attrs.items() if v.isdigit() and k != "CMDLEVEL"}
    assert {(kind, k) for kind, k in numeric if k not in numbers(kind)} == set()


def test_crtmqm_defaults_are_all_in_range():
    """The table and crtmqm's values agree: every default MQ 9.4 gives is one it takes."""
    objects = [(kind, name, attrs) for (kind, _), (name, attrs) in TYPE_DEFAULTS.items()]
    objects += [(kind, name, attrs) for (kind, name), attrs in SYSTEM_OBJECTS.items()]
    objects.append(("QMGR", "", QMGR_DEFAULTS))
    bad = [(kind, name, k, v) for kind, name, attrs in objects for k, v in attrs.items()
           if k in numbers(kind) and number_problem(numbers(kind)[k], v)]
    assert bad == []


def test_written_estate_reads_back_with_extreme_values():
    session = Session(qmgr="QM1")
    session.run("DEFINE QLOCAL(Q) MAXDEPTH(999999999) MAXMSGL(104857600) QDEPTHHI(100)\n"
                "DEFINE CHANNEL(C) CHLTYPE(SDR) BATCHSZ(9999) DISCINT(999999) XMITQ(Q) "
                "CONNAME('h(1)')\nALTER QMGR MAXMSGL(32768)\n")
    again = Session()
    assert all(o.ok for o in again.run(to_mqsc(session.network)))
    assert again.network.qmgrs["QM1"].queues["Q"].get("MAXDEPTH") == "999999999"


def _cli(*words: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *words], capture_output=True,
                          text=True, timeout=120, input=stdin)


BAD_FILE = ("DEFINE QLOCAL(GOOD)\n"
            "DEFINE QLOCAL(HUGE) MAXDEPTH(" + "9" * 5000 + ")\n"
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(GOOD) "
            "BATCHSZ(LOTS)\n"
            "DEFINE QLOCAL(LATER) MAXDEPTH(10)\n")


def test_audit_subprocess_names_each_bad_value_and_applies_the_rest(tmp_path):
    path = tmp_path / "qm1.mqsc"
    path.write_text(BAD_FILE)
    done = _cli("audit", "--mqsc", str(path), "--json")
    assert done.returncode in (0, 3), done.stderr
    assert "Traceback" not in done.stderr
    err = done.stderr.splitlines()
    assert err[0].startswith(f"mqroute: {path}:2:29: AMQ8405I")
    assert "MAXDEPTH(" in err[0] and "out of range" in err[0] and len(err[0]) < 400
    column = BAD_FILE.splitlines()[2].index("BATCHSZ(") + len("BATCHSZ(")
    assert err[1].startswith(f"mqroute: {path}:3:{column}: AMQ8405I") and "BATCHSZ(LOTS)" in err[1]
    assert "4 MQSC commands read." in done.stderr
    assert "2 commands have a syntax error." in done.stderr
    strict = _cli("audit", "--mqsc", str(path), "--strict")
    assert strict.returncode == 2 and strict.stdout == ""
    assert strict.stderr.rstrip().endswith("(--strict)")


def test_sim_runmqsc_subprocess_refuses_bad_values(tmp_path):
    estate = str(tmp_path / "estate")
    assert _cli("sim", "init", estate, "--network", "demo").returncode == 0
    done = _cli("sim", "runmqsc", estate, "QM1",
                stdin="DEFINE QLOCAL(HUGE) MAXDEPTH(" + "9" * 5000 + ")\n"
                      "ALTER QMGR MAXMSGL(10)\n"
                      "DEFINE QLOCAL(FINE) MAXDEPTH(999999999)\n")
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert out.count("AMQ8405I") == 2 and "AMQ8006I" in out
    assert "MAXMSGL(10) is out of range" in out + done.stderr
    assert len(out) < 10_000 + 3 * 5000  # the long value is echoed once, not repeated
    assert done.returncode != 0
    shown = _cli("sim", "runmqsc", estate, "QM1",
                 stdin="DISPLAY QLOCAL(FINE) MAXDEPTH\nDISPLAY QLOCAL(HUGE)\n").stdout
    assert "MAXDEPTH(999999999)" in shown and "AMQ8147E" in shown



def test_ranges_checked_against_ibm_pages():
    """The ranges IBM's pages give, as found through the project's search (CHECKED_LIMITS):
    held here number for number so that a change to the table is a deliberate one."""
    from traceroute.status.attributes import CHANNEL, CHECKED_LIMITS, QMGR, QUEUE

    pages = {("QUEUE", "MAXDEPTH"): (0, 999_999_999), ("QUEUE", "MAXMSGL"): (0, 104_857_600),
             ("CHANNEL", "BATCHINT"): (0, 999_999_999), ("CHANNEL", "BATCHHB"): (0, 999_999),
             ("CHANNEL", "BATCHLIM"): (0, 999_999), ("CHANNEL", "DISCINT"): (0, 999_999),
             ("CHANNEL", "HBINT"): (0, 999_999), ("CHANNEL", "KAINT"): (0, 99_999),
             ("CHANNEL", "SEQWRAP"): (100, 999_999_999),
             ("CHANNEL", "MRRTY"): (0, 999_999_999), ("CHANNEL", "MRTMR"): (0, 999_999_999),
             ("CHANNEL", "MAXINST"): (0, 999_999_999),
             ("QMGR", "MAXMSGL"): (32_768, 104_857_600), ("QMGR", "MAXHANDS"): (0, 999_999_999),
             ("QMGR", "MAXUMSGS"): (1, 999_999_999), ("QMGR", "TRIGINT"): (0, 999_999_999)}
    tables = {"QUEUE": QUEUE, "CHANNEL": CHANNEL, "QMGR": QMGR}
    assert set(pages) == CHECKED_LIMITS
    assert {key: tables[key[0]][key[1]].limits for key in pages} == pages
