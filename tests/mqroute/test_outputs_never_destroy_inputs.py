"""Outputs never destroy inputs; a failed write leaves the old file.

Every subcommand's path arguments are found by their declared role (`mqroute.paths`), not
by their spelling: for every output of every command and every input of the same command,
the output pointed at the input (the same path, through a symbolic link, a hard link, or
inside an input folder) is refused before any work with status 2, and the input is
untouched. Two outputs on one file are refused too, and URIs with credentials are refused
with the credentials masked. File outputs are written beside and renamed into place: a file
size limit (RLIMIT_FSIZE) or an error mid-write leaves the previous file intact and names it.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from mqroute.main import build_parser, main
from mqroute.output import replacing, write_file
from mqroute.paths import Address, InputPath, OutputFolder, OutputPath, masked
from pcf import dmpmqmsg
from traceroute.records import example_reports


@functools.cache
def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def role(action: argparse.Action) -> type | None:
    """The class a declared path argument's values are marked with (or None)."""
    if action.type is None or not callable(action.type):
        return None
    try:
        value = action.type("probe.svg")
    except (argparse.ArgumentTypeError, ValueError, TypeError):
        return None
    for kind in (InputPath, OutputFolder, OutputPath, Address):
        if isinstance(value, kind):
            return kind
    return None


def words_for(action: argparse.Action, value: str) -> list[str]:
    if action.option_strings:
        return [action.option_strings[-1], value]
    return [value]


def declared() -> list[tuple[str, argparse.Action, list[argparse.Action], list]]:
    """(command, output action, its input actions, other outputs) for every output."""
    out = []
    for name, p in subcommands().items():
        actions = [a for a in p._actions if role(a)]
        inputs = [a for a in actions if role(a) is InputPath]
        outputs = [a for a in actions if role(a) in (OutputPath, OutputFolder)]
        for o in outputs:
            out.append((name, o, inputs, [x for x in outputs if x is not o]))
    return out


def positional_filler(action: argparse.Action) -> list[str]:
    """A value for a positional the test does not care about (its first choice)."""
    if action.choices:
        return [next(iter(action.choices))]
    return [] if action.nargs in ("*", "?") else ["x"]


def test_every_command_that_writes_declares_its_paths():
    commands = {name for name, *_ in declared()}
    assert {"show", "trace", "follow", "report", "analyze"} <= commands
    for name, p in subcommands().items():   # every FILE/DIR/URL-looking option is declared
        for a in p._actions:
            metavar = a.metavar if isinstance(a.metavar, str) else ""
            looks = any(w in metavar.upper() for w in ("FILE", "DIR", "PATH", "URL", "INPUT"))
            if looks:
                assert role(a), f"mqroute {name} {a.option_strings or a.dest}: declare its " \
                                "type as input_path/output_path/output_folder/address"


def _command_line(name, output, inputs, others, target: str, input_file: str,
                  tmp: Path) -> list[str]:
    """Every declared path of the command given (positionals in their order first)."""
    values = {id(a): input_file for a in inputs}
    for k, o in enumerate(others):
        suffix = ".svg" if "graph" in o.dest else (".d" if role(o) is OutputFolder else ".out")
        values[id(o)] = str(tmp / f"other{k}{suffix}")
    values[id(output)] = target
    positionals, options = [], []
    for a in subcommands()[name]._actions:
        if not a.option_strings and a.dest != "help":
            positionals += [values[id(a)]] if id(a) in values else positional_filler(a)
        elif id(a) in values:
            options += words_for(a, values[id(a)])
    return [name, *positionals, *options]


@pytest.mark.parametrize("case", declared(), ids=lambda c: f"{c[0]}-{c[1].dest}")
def test_an_output_onto_an_input_is_refused_before_any_work(case, tmp_path, capsys):
    name, output, inputs, others = case
    if not inputs:
        pytest.skip("no input to clash with")
    suffix = ".svg" if "graph" in output.dest else ".dmp"
    data = dmpmqmsg.write([dmpmqmsg.DumpedMessage(m, d) for m, d in example_reports()])
    victim = tmp_path / f"input{suffix}"
    victim.write_text(data, encoding="latin-1")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(victim)
    hard = tmp_path / f"hard{suffix}"
    os.link(victim, hard)
    before = victim.read_bytes(), victim.stat().st_mtime_ns
    folder = tmp_path / "folder"
    folder.mkdir()
    inside = folder / f"x{suffix}"
    cases = [(str(victim), str(victim), "is the input"), (str(link), str(victim), "symbolic"),
             (str(hard), str(victim), "hard link"), (str(victim), str(link), "symbolic")]
    if role(output) is OutputPath:
        cases.append((str(inside), str(folder), "inside"))
    else:
        cases.append((str(folder), str(inside), "holds"))
    for target, given_input, why in cases:
        status = main(_command_line(name, output, inputs, others, target, given_input,
                                    tmp_path))
        err = capsys.readouterr().err
        assert status == 2, (name, output.dest, target, err)
        assert len(err.strip().splitlines()) == 1 and why in err, err
        assert (victim.read_bytes(), victim.stat().st_mtime_ns) == before
        for old in hidden_spellings(name):  # options are named as --help shows them
            assert f" {old} " not in err, (name, old, err)


def hidden_spellings(name: str) -> set[str]:
    """The old option spellings a command keeps out of its --help."""
    return {o for a in subcommands()[name]._actions if a.help == argparse.SUPPRESS
            for o in a.option_strings}


def test_a_clash_names_the_option_as_help_spells_it(tmp_path, capsys):
    """report --mqsc F -o F: the message names --mqsc, not the hidden --config that shares
    its destination."""
    (tmp_path / "out").mkdir()
    mqsc = tmp_path / "qm.mqsc"
    mqsc.write_text("DEFINE QLOCAL(A)\n")
    assert "--config" in hidden_spellings("report")
    for flag in ("--mqsc", "--config"):
        assert main(["report", str(tmp_path / "out"), flag, str(mqsc), "-o", str(mqsc)]) == 2
        assert capsys.readouterr().err == (
            f"mqroute: --output {mqsc} is the input --mqsc {mqsc}: writing it would destroy "
            "or change what this command reads; choose another place\n")


def test_two_outputs_on_one_file_are_refused(tmp_path, capsys):
    dump = tmp_path / "r.dmp"
    dmpmqmsg.write_file(dump, [dmpmqmsg.DumpedMessage(m, d) for m, d in example_reports()])
    out = tmp_path / "both.json"
    assert main(["show", str(dump), "--graph", str(out), "--otlp", str(out)]) == 2
    assert "the same file" in capsys.readouterr().err and not out.exists()
    assert main(["trace", "--network", "demo", "-q", "Q", "--save", str(out),
                 "--graph", str(out)]) == 2


def test_a_graph_suffix_is_checked_before_any_work(tmp_path, capsys):
    assert main(["show", str(tmp_path / "missing.dmp"), "--graph",
                 str(tmp_path / "g.gif")]) == 2
    err = capsys.readouterr().err
    assert "g.gif" in err and ".graphml" in err and "missing.dmp" not in err


@pytest.mark.parametrize("uri", ["s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/in",
                                 "https://user:hunter2@collector:4318/v1/traces",
                                 "gs://token@bucket/x"])
def test_credentials_in_a_uri_are_refused_and_masked(uri, tmp_path, capsys):
    dump = tmp_path / "r.dmp"
    dump.write_text("")
    argv = {"s3": ["analyze", uri, "--out", str(tmp_path / "o")],
            "https": ["show", str(dump), "--otlp-endpoint", uri],
            "gs": ["report", uri]}[uri.split(":")[0]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    for secret in ("wJalrXUtnFEMI", "hunter2", "token@"):
        assert secret not in err
    assert "***" in err
    if uri.startswith("https"):  # an HTTP endpoint's credentials go in its headers
        assert "OTEL_EXPORTER_OTLP_HEADERS" in err and "AWS_" not in err, err
    else:  # a store's in its environment
        assert "store's environment" in err and "AWS_ACCESS_KEY_ID" in err, err


def test_masked():
    assert masked("s3://ID:SECRET@bucket/a/b") == "s3://ID:***@bucket/a/b"
    assert masked("gs://TOKEN@b/x") == "gs://***@b/x"
    assert masked("s3://bucket/a@b") == "s3://bucket/a@b"
    assert masked("/local/p@th") == "/local/p@th"


# --- written beside, renamed into place -------------------------------------------------

def test_a_failed_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.html"
    path.write_text("old")
    os.chmod(path, 0o640)
    with pytest.raises(RuntimeError), replacing(path) as f:
        f.write("half of the new")
        raise RuntimeError("the writer failed")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.html"]   # no temporary left
    write_file(path, "new")
    assert path.read_text() == "new" and (path.stat().st_mode & 0o777) == 0o640


def test_writing_through_a_link_keeps_the_link(tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    write_file(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_special_files_are_written_in_place(tmp_path):
    write_file(os.devnull, b"x" * 10)
    assert Path(os.devnull).is_char_device()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    write_file(fifo, b"through a pipe")
    assert reader.communicate(timeout=10)[0] == b"through a pipe"
    assert fifo.is_fifo()


def test_parts_left_by_a_killed_writer_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = tmp_path / f".out.json.{dead}.abc.mqroute-part"
    stale.write_text("partial")
    mine = tmp_path / f".out.json.{os.getpid()}.xyz.mqroute-part"
    mine.write_text("in progress")
    write_file(tmp_path / "out.json", "{}")
    assert not stale.exists() and mine.exists()


def _limited(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_file_size_limit_leaves_every_output_intact(tmp_path):
    """Each command's file outputs under RLIMIT_FSIZE: status 2 or the output reported as not
    written, the old file as it was, the file named."""
    dump = tmp_path / "r.dmp"
    dmpmqmsg.write_file(dump, [dmpmqmsg.DumpedMessage(m, d) for m, d in example_reports()])
    runs = [["show", str(dump), "--otlp", "{out}.json"],
            ["show", str(dump), "--graph", "{out}.svg"],
            ["show", str(dump), "--graph", "{out}.graphml"],
            ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "--graph",
             "{out}.svg"]]
    for k, words in enumerate(runs):
        out = tmp_path / f"out{k}"
        target = Path(words[-1].format(out=out))
        target.write_text("the previous output")
        argv = [w.format(out=out) for w in words]
        r = subprocess.run([sys.executable, "-m", "mqroute", *argv], capture_output=True,
                           text=True, timeout=120, preexec_fn=_limited(200))
        assert target.read_text() == "the previous output", (argv, r.stderr)
        assert str(target) in r.stderr, (argv, r.stderr)
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
        assert r.returncode == 2, (argv, r.returncode, r.stderr)
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".mqroute-part")]


def test_commands_get_plain_strings(monkeypatch, tmp_path):
    """Declared paths are marked for the check, then plain str again (Spark's pickler and
    others refuse a str subclass)."""
    import mqroute.commands.show as show

    seen = {}

    def spy(args):
        seen.update(vars(args))
        return 0

    monkeypatch.setattr(show, "run", spy)
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.choices["show"].set_defaults(func=spy)
    monkeypatch.setattr("mqroute.main.build_parser", lambda: parser)
    assert main(["show", str(tmp_path / "a.dmp"), "--otlp", str(tmp_path / "o.json"),
                 "--events", str(tmp_path / "e.dmp")]) == 0
    for key in ("files", "otlp", "events"):
        values = seen[key] if isinstance(seen[key], list) else [seen[key]]
        assert values and all(type(v) is str for v in values), (key, values)
