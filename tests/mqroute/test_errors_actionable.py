"""Errors a person can act on: a missing extra is one line with the pip command (each tested
with its module made unimportable), --graph's suffix refused before any work, a Spark master
nothing answers at named within 60 s, tools' usage instead of tracebacks; and analyze of a
small input runs in one process, says so, and its first line comes at once."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import dspmqrte_examples as ex
from tests.support.cli import begun

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, blocked: tuple[str, ...] = (), timeout: float = 120,
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`mqroute ARGS` in a fresh interpreter where `blocked` modules cannot be imported."""
    code = ("import sys\n"
            f"for name in {list(blocked)!r}:\n"
            "    sys.modules[name] = None  # import raises ModuleNotFoundError\n"
            "from mqroute.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, check=False, env=env, cwd=cwd)


@pytest.fixture
def dump(tmp_path):
    return ex.write_example_dump(tmp_path / "activity.dmp")


def one_line(r: subprocess.CompletedProcess) -> str:
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    return lines[0]


@pytest.mark.parametrize("argv,blocked,expected", [
    (["analyze", "{dump}", "--out", "{out}", "--spark"], ("pyspark",),
     "mqroute: analyze needs Spark: pip install 'mqroute[spark]' (and Java 17+)"),
    (["analyze", "{dump}", "--out", "{out}"], ("pyarrow",),
     "mqroute: analyze needs pyarrow: pip install 'mqroute[spark]'"),
    (["show", "{dump}", "--graph", "{out}.png"], ("pygraphviz",),
     "mqroute: show needs pictures (Graphviz through pygraphviz): "
     "pip install 'mqroute[pictures]'"),
    (["show", "{dump}", "--graph", "{out}.graphml"], ("networkx",),
     "mqroute: show needs networkx: pip install 'mqroute[pictures]'"),
    (["show", "{dump}", "--otlp-endpoint", "http://127.0.0.1:9/v1/traces"], ("opentelemetry",),
     "mqroute: show needs the OpenTelemetry OTLP exporter: pip install 'mqroute[otel]'"),
    (["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "--graph", "{out}.svg"],
     ("pygraphviz",), "mqroute: trace needs pictures (Graphviz through pygraphviz): "
                      "pip install 'mqroute[pictures]'"),
    (["report", "{indir}", "-o", "{out}.html"], ("pygraphviz",),
     "mqroute: report needs pictures (Graphviz through pygraphviz): "
     "pip install 'mqroute[pictures]'"),
    (["show", "s3://bucket/dumps/"], ("pyarrow",),
     "mqroute: show needs pyarrow: pip install 'mqroute[spark]'"),
])
def test_a_missing_extra_is_one_line_with_the_pip_command(argv, blocked, expected, dump,
                                                         tmp_path):
    (tmp_path / "in").mkdir()
    words = [w.format(dump=dump, out=tmp_path / "out", indir=tmp_path / "in") for w in argv]
    r = run(*words, blocked=blocked)
    lines = [x for x in r.stderr.splitlines() if not x.startswith("mqroute: 0 routes")
             and "no activity data" not in x]
    assert lines and lines[0] == expected, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert r.returncode in (1, 2)
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "out").exists()


def test_a_missing_extra_met_late_is_still_one_line(monkeypatch, capsys):
    """A ModuleNotFoundError of an optional dependency that escapes a command anyway."""
    from mqroute import main as main_module
    from mqroute.commands import decode

    def broken(args):
        import networkx_is_not_here  # noqa: F401
    monkeypatch.setitem(sys.modules, "networkx", None)

    def needs_networkx(args):
        import networkx  # noqa: F401
    monkeypatch.setattr(decode, "run", needs_networkx)
    assert main_module.main(["decode", "--example"]) == 2
    assert capsys.readouterr().err == ("mqroute: decode needs networkx: "
                                       "pip install 'mqroute[pictures]'\n")
    monkeypatch.setattr(decode, "run", broken)
    assert main_module.main(["decode", "--example"]) == 2  # not an extra: a bug, one line
    assert "internal error: ModuleNotFoundError" in capsys.readouterr().err


@pytest.mark.parametrize("command", [
    ["show", "{dump}"], ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2"]])
def test_an_unknown_graph_suffix_is_refused_before_any_work(command, dump, tmp_path):
    words = [w.format(dump=dump) for w in command]
    r = run(*words, "--graph", str(tmp_path / "r.gif"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[-1].endswith(
        f"error: argument --graph: {tmp_path / 'r.gif'}: use a file ending in .png, .svg, "
        ".pdf, .graphml or .json")
    assert r.stdout == ""  # nothing shown, nothing put


def test_a_master_nothing_answers_at_is_one_line(dump, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    started = time.monotonic()
    r = run("analyze", str(dump), "--out", str(tmp_path / "out"), "--master",
            f"spark://127.0.0.1:{port}", timeout=90)
    assert time.monotonic() - started < 60
    assert r.returncode == 2
    lines = [x for x in r.stderr.splitlines() if "[" not in x]  # progress lines aside
    assert lines == [f"mqroute: --master spark://127.0.0.1:{port}: no Spark master answers "
                     f"(127.0.0.1:{port}: Connection refused)"], r.stderr
    assert "at org.apache" not in r.stderr and "Exception" not in r.stderr


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a running process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        pytest.skip("no /proc to read a process's CPU time from")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_small_input_runs_in_one_process_and_says_so_first_line_at_once(dump, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "mqroute", "analyze", str(dump), "--out",
                             str(tmp_path / "out")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = begun(proc.stderr)  # the rest stays in the pipe for communicate()
    first_at = _cpu_seconds(proc.pid)
    out, err = proc.communicate(timeout=120)
    err = first + err
    assert proc.returncode == 0, err
    # the work done before the first line, interpreter start included: CPU time, which a
    # machine shared with other jobs does not stretch as it stretches the wall clock
    assert first.startswith("mqroute: [") and first_at < 2, first_at
    assert "3 messages: analysed in this process, without Spark (--spark to use it)" in err
    assert "discarded_at_target" in out and (tmp_path / "out" / "routes").is_dir()
    assert out.splitlines()[-1] == (  # the one-process run says what Spark's says
        f"tables written to {tmp_path / 'out'}: operations, rejects, routes, hops, queue_stats "
        "(0 rows), channel_stats (0 rows), mqi_stats (0 rows), accounting (0 rows), calls, "
        "journeys (0 rows)")


def test_no_spark_refuses_what_only_spark_does(dump, tmp_path):
    r = run("analyze", str(dump), "--out", str(tmp_path / "o"), "--no-spark", "--graph")
    assert r.returncode == 2
    assert one_line(r) == "mqroute: --no-spark: --graph run(s) on Spark only"


def test_tools_give_usage_not_tracebacks():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_mqc.py")],
                       capture_output=True, text=True, check=False, env=env)
    assert r.returncode == 2 and r.stderr.startswith("usage: python ")
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "graph.pipeline.ship"], capture_output=True,
                       text=True, check=False, env=env, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.startswith("usage: python -m graph.pipeline.ship ")  # no runpy warning
    assert r.stderr.endswith("error: the following arguments are required: DIR\n")
    assert "Traceback" not in r.stderr and "RuntimeWarning" not in r.stderr


@pytest.mark.slow
def test_spark_is_quiet_unless_asked(dump, tmp_path):
    """analyze --spark: mqroute's progress lines and results only; no log4j, no JVM warning,
    no console progress bar."""
    pytest.importorskip("pyspark")
    r = run("analyze", str(dump), "--out", str(tmp_path / "out"), "--spark", timeout=600)
    assert r.returncode == 0, r.stderr
    for line in r.stderr.splitlines():
        assert line.startswith("mqroute: "), r.stderr
    assert "discarded_at_target" in r.stdout
