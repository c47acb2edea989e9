"""Issue 17, class 4: every MQSC problem is one line `FILE:LINE:COL: reason` and exit 2.

Driven as a user does (`python -m mqroute audit/trace` in a subprocess: no traceback on
stderr) and through the API (`read_mqsc` raises `MQSCError` with the place), and over
random MQSC-like text (hypothesis): a network or an MQSCError, nothing else.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqroute.main import main
from traceroute.sim.mqsc import MQSCError, decode_mqsc, parse_mqsc, read_mqsc

#: name -> (file content, line, column, words the reason must contain)
PROBLEMS = {
    "quote": (b"DEFINE QLOCAL(A) DESCR('abc\n", 1, 24, "never closed"),
    "duplicate": (b"DEFINE QLOCAL(A)\n* a comment\nDEFINE QLOCAL(A)\n", 3, 1, "REPLACE"),
    "long_channel": (b"DEFINE QLOCAL(OK)\nDEF CHL(ABCDEFGHIJKLMNOPQRSTU) CHLTYPE(SDR)\n",
                     2, 8, "up to 20"),
    "not_utf8": (b"DEFINE QLOCAL(A)\nDEFINE QLOCAL(B) DESCR('caf\xe9')\n", 2, 28, "UTF-8"),
    "trailing_plus": (b"DEFINE QLOCAL(A) +\n", 1, 18, "continuation"),
    "paren": (b"DEFINE QLOCAL(A\n", 1, 14, "never closed"),
    "unknown_verb": (b"\n\n  FROB QLOCAL(A)\n", 3, 3, "unknown MQSC command"),
    "bad_chltype": (b"DEFINE CHANNEL(C) CHLTYPE(XYZ)\n", 1, 19, "CHLTYPE"),
    "alter_undefined": (b"ALTER QLOCAL(NONE) DESCR('x')\n", 1, 1, "AMQ8147E"),
}


def _write(tmp_path, name: str, content: bytes):
    path = tmp_path / f"{name}.mqsc"
    path.write_bytes(content)
    return path


def _cli(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", *words], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_api_names_file_line_and_column(tmp_path, name):
    content, line, column, words = PROBLEMS[name]
    path = _write(tmp_path, name, content)
    with pytest.raises(MQSCError) as caught:
        read_mqsc([path])
    e = caught.value
    assert (e.source, e.line, e.column) == (str(path), line, column)
    assert words in e.reason + e.amq
    assert e.located == f"{path}:{line}:{column}: {e.reason}"


#: Problems in one command of a file (the file itself is readable): reported, the rest
#: applied, and the command does its job; with --strict, exit 2 before any work.
COMMAND_PROBLEMS = sorted(set(PROBLEMS) - {"not_utf8", "trailing_plus"})


@pytest.mark.parametrize("name", COMMAND_PROBLEMS)
@pytest.mark.parametrize("command", ["audit", "trace"])
def test_cli_in_process(tmp_path, capsys, name, command):
    content, line, column, _ = PROBLEMS[name]
    path = _write(tmp_path, name, content + b"DEFINE QLOCAL(LATER)\n")
    argv = (["audit", "--mqsc", str(path)] if command == "audit"
            else ["trace", "--network", str(path), "-q", "LATER"])
    status = main(argv)
    err = capsys.readouterr().err
    assert err.startswith(f"mqroute: {path}:{line}:{column}: AMQ")
    assert f"mqroute: {path}: " in err and "MQSC commands read." in err  # runmqsc's summary
    assert status in (0, 3) if command == "audit" else status != 2  # it did its job
    assert main([*argv, "--strict"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mqroute: {path}:{line}:{column}: AMQ")
    assert err.rstrip().endswith("(--strict)")


def test_cli_not_utf8_is_fatal(tmp_path, capsys):
    content, line, column, _ = PROBLEMS["not_utf8"]
    path = _write(tmp_path, "not_utf8", content)
    assert main(["audit", "--mqsc", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mqroute: {path}:{line}:{column}: ") and err.count("\n") == 1


@pytest.mark.parametrize("name", ["quote", "not_utf8", "trailing_plus", "duplicate",
                                  "long_channel"])
def test_cli_subprocess_no_traceback(tmp_path, name):
    content, line, column, _ = PROBLEMS[name]
    good = _write(tmp_path, "good", b"DEFINE QLOCAL(A)\n")
    bad = _write(tmp_path, name, content)
    for words in (["audit", "--mqsc", str(good), str(bad), "--strict"],
                  ["trace", "--network", str(good), str(bad), "-q", "A", "-rq", "A",
                   "--strict"]):
        done = _cli(*words)
        assert done.returncode == 2, done
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith(f"mqroute: {bad}:{line}:{column}: ")
        assert done.stdout == ""


def test_missing_file_and_folder(tmp_path):
    for path in (tmp_path / "absent.mqsc", tmp_path):
        done = _cli("audit", "--mqsc", str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"mqroute: {path}: ")


def test_no_queue_manager_in_network(tmp_path, capsys):
    path = _write(tmp_path, "empty", b"* only a comment\n")
    assert main(["trace", "--network", str(path), "-q", "A"]) == 2
    assert "no queue manager" in capsys.readouterr().err


def test_decode_mqsc_counts_characters_not_bytes():
    text = "DEFINE QLOCAL(A) DESCR('\u00e9\u00e9')\n".encode() + b"X\xff"
    with pytest.raises(MQSCError) as caught:
        decode_mqsc(text, "f")
    assert (caught.value.line, caught.value.column) == (2, 2)
    assert decode_mqsc("DESCR('\u00e9')".encode()) == "DESCR('\u00e9')"


def test_valid_input_unchanged(tmp_path, capsys):
    path = _write(tmp_path, "qm1", b"DEFINE QLOCAL(A) DESCR('caf\xc3\xa9')\n")
    network = read_mqsc([path])
    assert network.qmgrs["QM1"].queues["A"].attrs == {"DESCR": "caf\u00e9"}


_PIECES = ["DEFINE ", "DEF ", "ALTER ", "DELETE ", "STOP ", "QLOCAL", "QREMOTE", "QALIAS",
           "CHANNEL", "QMGR", "(A)", "(B)", "(", ")", "'", "''", " REPLACE", " LIKE(A)",
           " CHLTYPE(SDR)", " XMITQ(X)", " RNAME(B)", " RQMNAME(QM2)", " TARGET(A)", "+\n",
           "-\n", "\n", ";", ",", "* Queue manager name: QM2\n", "\u00e9", "\x00", " "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30), st.sampled_from([None, "QM1"]))
def test_random_mqsc_gives_a_network_or_a_located_error(pieces, qmgr):
    text = "".join(pieces)
    try:
        parse_mqsc(text, source="r.mqsc", qmgr=qmgr)
    except MQSCError as e:
        assert e.source == "r.mqsc" and e.reason
        assert e.located.startswith("r.mqsc")
        if e.line:
            assert 1 <= e.line <= text.count("\n") + 1


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_through_the_audit_command(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("m") / "qm1.mqsc"
    path.write_bytes(data)
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["audit", "--mqsc", str(path)])
    assert status in (0, 1, 2)
    if status == 2:
        assert err.getvalue().startswith(f"mqroute: {path}:")


def test_reading_is_bounded(tmp_path):
    path = _write(tmp_path, "big", b"DEFINE QLOCAL(A)\n" * 100)
    with pytest.raises(MQSCError, match="larger than"):
        read_mqsc([path], limit=1000)
    assert "QM1" in read_mqsc([_write(tmp_path, "qm1", b"DEFINE QLOCAL(A)\n")], limit=1000).qmgrs


def test_dev_zero_is_refused_not_read_forever():
    import os

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    done = _cli("audit", "--mqsc", "/dev/zero")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("mqroute: /dev/zero: larger than")
