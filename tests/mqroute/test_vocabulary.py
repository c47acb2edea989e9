"""One vocabulary across the commands: --mqsc, --msg-id, -u, positional files never
swallowed by several-valued options, old spellings kept hidden for one release."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest

from mqroute.main import build_parser, main, subcommand_parsers
from mqroute.options import untangle
from tests.support import dspmqrte_examples as ex

SUBS = subcommand_parsers(build_parser())


@pytest.fixture
def dump(tmp_path):
    return ex.write_example_dump(tmp_path / "activity.dmp")


@pytest.fixture
def demo_mqsc(tmp_path):
    path = tmp_path / "QM1_QM2.mqsc"
    path.write_text(resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text())
    return path


@pytest.mark.parametrize("words,expected", [
    ("-v all a.dmp", ["-v", "all", "--", "a.dmp"]),
    ("-v outline activity,message a.dmp b.dmp --json",
     ["-v", "outline", "activity,message", "--json", "--", "a.dmp", "b.dmp"]),
    ("a.dmp --json b.dmp", ["--json", "--", "a.dmp", "b.dmp"]),
    ("--events ev.dmp a.dmp", ["--events", "ev.dmp", "--", "a.dmp"]),
    ("--events e1.dmp e2.dmp -- a.dmp", ["--events", "e1.dmp", "e2.dmp", "--", "a.dmp"]),
    ("-i ABCD a.dmp", ["-i", "ABCD", "--", "a.dmp"]),
    ("a.dmp -v outline colours", ["-v", "outline", "colours", "--", "a.dmp"]),  # -v's error
    ("a.dmp", ["a.dmp"]),
])
def test_untangle_show(words, expected):
    assert untangle(SUBS["show"], words.split()) == expected


def test_untangle_keeps_other_commands_as_typed():
    assert untangle(SUBS["audit"], ["--mqsc", "a", "b", "--observed", "o"]) == \
        ["--mqsc", "a", "b", "--observed", "o"]
    assert untangle(SUBS["report"], ["--mqsc", "a.mqsc", "b.mqsc", "out"]) == \
        ["--mqsc", "a.mqsc", "b.mqsc", "--", "out"]
    assert untangle(SUBS["trace"], ["-p", "-1", "-q", "Q"]) == ["-p", "-1", "-q", "Q"]


def test_show_verbosity_then_files(dump, capsys):
    """The issue's own example: `mqroute show -v all activity.dmp`, as a subprocess."""
    done = subprocess.run([sys.executable, "-m", "mqroute", "show", "-v", "all", str(dump)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "Route of message" in done.stdout and "required" not in done.stderr
    assert main(["show", "-v", "outline", "identifiers", str(dump), "--json"]) == 0
    assert capsys.readouterr().out.startswith("{")


def test_events_then_files(dump, tmp_path, capsys):
    events = tmp_path / "events.dmp"  # no events in it: its messages are skipped, counted
    events.write_bytes(dump.read_bytes())
    assert main(["show", "--events", str(events), str(dump)]) == 0
    assert "Route of message" in capsys.readouterr().out


def test_msg_id_everywhere_and_old_spellings_hidden(dump, capsys):
    key = ex.trace_md().msg_id.hex()
    for flag in ("--msg-id", "-i", "--correl-id"):
        assert main(["show", flag, key.lower(), str(dump)]) == 0, flag
        assert "Route of message" in capsys.readouterr().out
    assert "--correl-id" not in SUBS["show"].format_help()
    for name in ("show", "follow", "trace"):
        assert "--msg-id" in SUBS[name].format_help(), name


def test_mqsc_everywhere_and_config_hidden(demo_mqsc, capsys):
    for name in ("audit", "report", "trace", "events", "cfstruct"):
        assert "--mqsc" in SUBS[name].format_help(), name
    for name in ("audit", "report"):
        assert "--config" not in SUBS[name].format_help(), name
    assert main(["audit", "--mqsc", str(demo_mqsc), "--json"]) in (0, 3)
    new = capsys.readouterr().out
    assert main(["audit", "--config", str(demo_mqsc), "--json"]) in (0, 3)
    assert capsys.readouterr().out == new
    assert main(["audit"]) == 2
    assert "--mqsc" in capsys.readouterr().err


def test_trace_on_mqsc_files(demo_mqsc, capsys):
    argv = ["trace", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q", "-v", "none"]
    assert main([*argv, "--mqsc", str(demo_mqsc)]) == 0
    assert main([*argv, "--network", str(demo_mqsc)]) == 0
    assert main([*argv, "--network", "demo"]) == 0


def test_dspmqrte_user_flag(capsys):
    argv = ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2"]
    assert main([*argv, "-u", "app"]) == 2
    assert "--user: no meaning with --network" in capsys.readouterr().err


def _stopped_channel(tmp_path):
    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    path = tmp_path / "stopped.mqsc"
    path.write_text(text.replace("* Queue manager name: QM2",
                                 "STOP CHANNEL('QM1.TO.QM2')\n* Queue manager name: QM2"))
    return path


def test_trace_says_where_it_ended(tmp_path):
    """After the dspmqrte lines, trace says the verdict and last known location as show does
    (a subprocess, as a person runs it)."""
    done = subprocess.run([sys.executable, "-m", "mqroute", "trace", "--mqsc",
                           str(_stopped_channel(tmp_path)), "-m", "QM1", "-q", "TARG.AT.QM2",
                           "-rq", "ACTIV.REPLY.Q", "-w", "5"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 4, done.stderr
    lines = done.stdout.splitlines()
    result = [line for line in lines if line.startswith("Result: ")]
    assert result == ["Result: waiting on a transmission queue (is its channel running?); "
                      "last known location: queue manager 'QM1', queue 'QM2', bound for queue "
                      "manager 'QM2'"]
    assert lines.index(result[0]) < lines.index("AMQ8652: DSPMQRTE command has finished.")


def test_count_prints_the_distribution_first_or_alone(capsys):
    argv = ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
            "ACTIV.REPLY.Q", "--count", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Distribution: QM2: 3" in out and "Verdicts: discarded_at_target: 3" in out
    assert not any(line.startswith(("AMQ8666", "Result: ")) for line in out)  # alone
    assert main([*argv, "-v", "outline"]) == 0
    out = capsys.readouterr().out.splitlines()
    first_route = next(i for i, line in enumerate(out) if line.startswith("Result: "))
    assert out.index("Distribution: QM2: 3") < first_route  # first
    assert sum(line.startswith("Result: ") for line in out) == 3  # then every route


def test_json_has_dspmqrtj_summary_and_epoch_millis(tmp_path, capsys):
    """trace --json and show --json: dspmqrtj's summary and each operation's epochMilliSec."""
    from datetime import UTC, datetime

    dump = tmp_path / "saved.dmp"
    argv = ["trace", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q", "--json"]
    assert main([*argv, "--network", "demo", "--save", str(dump)]) == 0
    traced = json.loads(capsys.readouterr().out)
    assert traced["summary"] == {
        "parameters": "-m QM1 -q TARG.AT.QM2 -rq ACTIV.REPLY.Q",  # dspmqrte options
        "success": "Message successfully reached a destination", "totalTimeMilliSec": 0,
        "channelCount": 1, "finalQueueManager": "QM2"}
    for op in (o for a in traced["activities"] for o in a["operations"]):
        when = datetime.strptime(f"{op['date']} {op['time'].replace('.', ':')}",
                                 "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        assert op["epochMilliSec"] == int(when.timestamp()) * 1000
    assert main(["show", "--json", str(dump)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["summary"] == {**traced["summary"], "parameters": None}
    assert main([*argv, "--mqsc", str(_stopped_channel(tmp_path)), "-w", "3"]) == 4
    stuck = json.loads(capsys.readouterr().out)["summary"]
    assert stuck["failure"].startswith("Message not reported at a final destination: waiting")
    assert "success" not in stuck
    assert (stuck["channelCount"], stuck["finalQueueManager"]) == (0, "QM1")


def test_every_help_reads_as_one_tool():
    """Each command's --help: what it does, its options, its exit statuses (where the module
    states them), its page; the old spellings hidden; several-valued options made by
    options.several (so they never swallow positional files)."""
    for name, parser in SUBS.items():
        text = parser.format_help()
        assert parser.description and parser.description[0].isupper(), name
        assert text.rstrip().endswith(f"Documentation: docs/commands/{name}.md"), name
        for old in ("--config", "--correl-id"):
            assert old not in text, (name, old)
        for action in parser._actions:
            if action.option_strings and action.nargs in ("+", "*"):
                assert hasattr(action, "accepts"), (name, action.option_strings)
    for name in ("decode", "show", "trace", "analyze", "audit", "stats", "events", "cfstruct",
                 "follow", "report"):
        assert "Exit status: " in SUBS[name].format_help(), name


def test_mqsc_takes_folders(tmp_path, capsys):
    """--mqsc DIR reads the folder's MQSC files (an estate folder, dmpmqcfg output), as the
    files one by one would."""
    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    qm1, qm2 = text.split("* Queue manager name: QM2")
    folder = tmp_path / "config"
    (folder / "more").mkdir(parents=True)
    (folder / "QM1.mqsc").write_text(qm1)
    (folder / "more" / "QM2.mqsc").write_text("* Queue manager name: QM2" + qm2)
    (folder / "notes.json").write_text("{}")  # not MQSC: left alone
    assert main(["audit", "--json", "--mqsc", str(folder)]) in (0, 3)
    from_folder = capsys.readouterr()
    assert main(["audit", "--json", "--mqsc", str(folder / "QM1.mqsc"),
                 str(folder / "more" / "QM2.mqsc")]) in (0, 3)
    assert capsys.readouterr() == from_folder
    main(["audit", "--mqsc", str(folder)])
    assert "2 queue managers" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["audit", "--mqsc", str(tmp_path / "empty")]) == 2
    assert "no MQSC files in it" in capsys.readouterr().err
