"""An empty queue's dump is a good input for every command that reads dumps.

dmpmqmsg of an empty queue writes its header lines and no message: a readable input holding
nothing (no problem line, no effect on the exit status). Only a file that is not a dump at
all is unreadable. Table-driven over every reading command and the header variants IBM's
tools (and ours) write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mqroute.main import main
from pcf import dmpmqmsg
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD

HEADERS = {
    "dmpmqmsg": "* Dumped by dmpmqmsg Version:9.4.0.0 Created:Sat Nov 28 10:00:00 2026\n"
                "* Qmgr  = QM1\n* Queue = SYSTEM.ADMIN.ACTIVITY.QUEUE\n\n",
    "qload": "* QLOAD Version:V1.9 Created:Mon Mar 16 09:00:00 2009\n* Qmgr  = QM1\n"
             "* Queue = SYSTEM.ADMIN.TRACE.ROUTE.QUEUE\n\n",
    "crlf": "* dmpmqmsg Version:9.3.0.0 Created:Sat Nov 28 10:00:00 2026\r\n"
            "* Qmgr  = QM1\r\n* Queue = Q\r\n\r\n",
    "names_only": "* Qmgr  = QM1\n* Queue = EMPTY.Q\n",
    "no_blank_line": "* Dumped by dmpmqmsg Version:9.4.0.0\n",
}

#: Every command that reads dumps, as argv with {} for the input.
COMMANDS = {
    "decode": ["decode", "{}"], "decode --json": ["decode", "--json", "{}"],
    "show": ["show", "{}"], "show --json": ["show", "--json", "{}"],
    "stats": ["stats", "{}"], "stats --json": ["stats", "--json", "{}"],
    "events": ["events", "{}"], "events --json": ["events", "--json", "{}"],
    "follow": ["follow", "{}"], "follow --json": ["follow", "--json", "{}"],
    "show --events": ["show", "{}", "--events", "{}"],
    "follow --events": ["follow", "{}", "--events", "{}"],
}


def _argv(command: str, path: Path) -> list[str]:
    return [str(path) if a == "{}" else a for a in COMMANDS[command]]


@pytest.mark.parametrize("header", sorted(HEADERS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_empty_queues_dump_is_a_good_input(tmp_path: Path, capsys, command: str,
                                              header: str) -> None:
    dump = tmp_path / "EMPTY.Q.dmp"
    dump.write_bytes(HEADERS[header].encode("latin-1"))
    assert main(_argv(command, dump)) == 0
    err = capsys.readouterr().err
    assert str(dump) not in err, err  # no problem line names it


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_only_what_is_not_a_dump_is_unreadable(tmp_path: Path, capsys, command: str) -> None:
    empty = tmp_path / "EMPTY.Q.dmp"
    empty.write_bytes(HEADERS["dmpmqmsg"].encode())
    other = tmp_path / "notes.txt"
    other.write_text("hello\nthis is not a dump\n")
    argv = [*_argv(command, empty), str(other)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert str(other) in err and str(empty) not in err


def test_our_own_dump_of_no_messages_reads_as_empty(tmp_path: Path, capsys) -> None:
    path = tmp_path / "none.dmp"
    write_file(path, [], qmgr="QM1", queue="Q")
    assert dmpmqmsg.read_file(path).messages == []
    assert main(["follow", str(path)]) == 0
    # and a dump with one message still reads it
    write_file(path, [DumpedMessage(MQMD(format="MQSTR"), b"x")], qmgr="QM1", queue="Q")
    assert main(["decode", str(path)]) == 0


@pytest.mark.parametrize(("line", "header"), [
    ("* Dumped by dmpmqmsg Version:9.4.0.0", True), ("* QLOAD Version:V1.9", True),
    ("*dmpmqmsg Version:9.2", True), ("* Qmgr  = QM1", True), ("* Queue = Q", True),
    ("* Dumped by mqroute (dmpmqmsg format)", True), ("* Index 3", False),
    ("* a comment", False), ("A VER 2", False), ("Qmgr = QM1", False), ("", False)])
def test_header_lines(line: str, header: bool) -> None:
    assert dmpmqmsg.is_header_line(line) is header


def test_analyze_readers_take_an_empty_dump_as_nothing(tmp_path: Path) -> None:
    """analyze's readers (the same on Spark and in one process): no reject, no row."""
    from graph.pipeline.journeylocal import run_local as run_journeys
    from graph.pipeline.local import run_local

    dump = tmp_path / "EMPTY.Q.dmp"
    dump.write_bytes(HEADERS["dmpmqmsg"].encode())
    result = run_local([str(dump)])
    assert (result.messages, result.rejects, result.route_count) == (0, [], 0)
    assert run_journeys([str(dump)]) == ([], [])
