"""`mqroute metrics` as a user runs it (subprocess): sources, the textfile and OTLP file,
/metrics refreshed while files change, --max-series, exit statuses and one-line errors."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pcf import mqc
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD
from tests.traceroute.stats.stats_pcf import CFT_STATISTICS, Builder

pytest.importorskip("prometheus_client")
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
B = Builder()
ADMIN = MQMD(format="MQADMIN ", encoding=546, coded_char_set_id=1208)


def statistics(queues: dict[str, tuple[int, int]], qmgr: str = "QM1") -> bytes:
    """One STATQ message: queue -> (puts, gets)."""
    top = [B.cfst(mqc.MQCA_Q_MGR_NAME, qmgr, 48), B.cfst(mqc.MQCAMO_START_DATE, "2026-11-23", 12),
           B.cfst(mqc.MQCAMO_START_TIME, "10.00.00", 8),
           B.cfst(mqc.MQCAMO_END_DATE, "2026-11-23", 12),
           B.cfst(mqc.MQCAMO_END_TIME, "10.30.00", 8),
           B.cfin(mqc.MQIAMO_OBJECT_COUNT, len(queues))]
    groups = [B.cfgr(mqc.MQGACF_Q_STATISTICS_DATA, [
        B.cfst(mqc.MQCA_Q_NAME, q, 48), B.cfil(mqc.MQIAMO_PUTS, [p, 0]),
        B.cfil(mqc.MQIAMO_GETS, [g, 0])]) for q, (p, g) in queues.items()]
    return B.message(CFT_STATISTICS, mqc.MQCMD_STATISTICS_Q, top, groups)


def dump(path: Path, queues: dict[str, tuple[int, int]]) -> Path:
    write_file(path, [DumpedMessage(ADMIN, statistics(queues))])
    return path


def mqroute(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", "metrics", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def values(text: str) -> dict[tuple, float]:
    return {(s.name, tuple(sorted((k, v) for k, v in s.labels.items() if v))): s.value
            for f in text_string_to_metric_families(text) for s in f.samples}


def put_count(text: str, queue: str) -> float | None:
    return values(text).get(("ibmmq_queue_mqput_message_count",
                             (("qmgr", "QM1"), ("queue", queue))))


@pytest.mark.parametrize(("args", "message"), [
    (["--textfile", "x.prom"], "give a source"),
    (["--stats", "x.dmp"], "say where they go"),
    (["--stats", "x.dmp", "--listen", "nowhere"], "--listen nowhere"),
    (["--stats", "x.dmp", "--textfile", "x.prom", "--interval", "0"], "--interval 0"),
    (["--stats", "x.dmp", "--textfile", "x.prom", "--max-series", "0"], "--max-series 0"),
])
def test_usage(args, message):
    r = mqroute(*args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_textfile_and_otlp_once(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1), "OTHER.Q": (5, 5)})
    prom, otlp = tmp_path / "mq.prom", tmp_path / "mq.json"
    r = mqroute("--stats", str(stats), "--textfile", str(prom), "--otlp", str(otlp))
    assert r.returncode == 0, r.stderr
    assert re.search(r"\d+ series exported", r.stderr)
    text = prom.read_text()
    assert put_count(text, "APP.Q") == 3 and put_count(text, "OTHER.Q") == 5
    assert values(text)[("mqroute_metrics_source_up", (("source", "statistics"),))] == 1
    doc = json.loads(otlp.read_text())
    names = {m["name"] for rm in doc["resourceMetrics"] for sm in rm["scopeMetrics"]
             for m in sm["metrics"]}
    assert "ibmmq.queue.mqput_message_count" in names
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mq.json", "mq.prom", "stats.dmp"]


def test_outputs_never_replace_inputs(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1)})
    before = stats.read_bytes()
    r = mqroute("--stats", str(stats), "--textfile", str(stats))
    assert r.returncode == 2 and "is the input" in r.stderr
    assert stats.read_bytes() == before


def test_a_failed_write_leaves_what_was_there(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1)})
    target = tmp_path / "taken"
    target.mkdir()
    (target / "keep").write_text("x")
    r = mqroute("--stats", str(stats), "--textfile", str(target))
    assert r.returncode == 1 and f"mqroute: {target}:" in r.stderr
    assert (target / "keep").read_text() == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.dmp", "taken"]


def test_unreadable_inputs_are_named_and_the_rest_exported(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1)})
    bad = tmp_path / "bad.dmp"
    bad.write_bytes(b"this is not a dump\n")
    prom = tmp_path / "mq.prom"
    (tmp_path / "empty").mkdir()
    r = mqroute("--stats", str(stats), str(bad), str(tmp_path / "missing.dmp"),
                "--analyze", str(tmp_path / "empty"), "--textfile", str(prom))
    assert r.returncode == 1
    assert "missing.dmp" in r.stderr and "mqroute: analyze:" in r.stderr
    text = prom.read_text()
    assert put_count(text, "APP.Q") == 3
    v = values(text)
    assert v[("mqroute_metrics_source_up", (("source", "analyze"),))] == 0
    assert v[("mqroute_metrics_input_problems", (("source", "statistics"),))] >= 1


def test_max_series_is_counted(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {f"Q{i:02d}": (i, 0) for i in range(40)})
    prom = tmp_path / "mq.prom"
    r = mqroute("--stats", str(stats), "--textfile", str(prom), "--max-series", "50")
    assert r.returncode == 0, r.stderr
    v = values(prom.read_text())
    kept = [k for k in v if k[0].startswith("ibmmq_")]
    assert len(kept) <= 50
    dropped = sum(n for k, n in v.items() if k[0] == "mqroute_metrics_dropped_series")
    assert dropped > 0 and len(kept) + dropped == 40 * 6  # six families per queue here


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


@pytest.mark.slow
def test_serving_refreshes_and_forgets_objects_that_went(tmp_path):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1), "GOES.AWAY": (1, 1)})
    proc = subprocess.Popen([sys.executable, "-m", "mqroute", "metrics", "--stats",
                             str(stats), "--listen", "127.0.0.1:0", "--interval", "0.3"],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stderr.readline()
        url = re.search(r"(http://\S+/metrics)", line).group(1)
        text = _get(url)
        assert put_count(text, "APP.Q") == 3 and put_count(text, "GOES.AWAY") == 1
        time.sleep(0.05)
        dump(stats, {"APP.Q": (8, 1)})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            text = _get(url)
            if put_count(text, "APP.Q") == 8:
                break
            time.sleep(0.1)
        assert put_count(text, "APP.Q") == 8
        assert put_count(text, "GOES.AWAY") is None
    finally:
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=20)
        rest = proc.stderr.read()
    assert rc == 0 and "stopped" in rest and "Traceback" not in rest


def _sim(*args: str, stdin: str = "") -> None:
    r = subprocess.run([sys.executable, "-m", "mqroute", "sim", *args], cwd=ROOT, input=stdin,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def depth(text: str, qmgr: str, queue: str) -> float | None:
    for (name, labels), v in values(text).items():
        d = dict(labels)
        if name == "ibmmq_queue_depth" and d.get("qmgr") == qmgr and d.get("queue") == queue:
            return v
    return None


@pytest.mark.slow
def test_an_estate_folder_watched_while_another_command_changes_it(tmp_path):
    """Serving --network DIR holds the estate's lock only while it asks: `sim put` from
    another process goes through, and the next refresh shows its messages."""
    folder = tmp_path / "estate"
    _sim("init", str(folder), "--network", "demo")
    _sim("runmqsc", str(folder), "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    _sim("put", str(folder), "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "2")
    proc = subprocess.Popen([sys.executable, "-m", "mqroute", "metrics", "--network",
                             str(folder), "--listen", "127.0.0.1:0", "--interval", "0.3"],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        url = re.search(r"(http://\S+/metrics)", proc.stderr.readline()).group(1)
        assert depth(_get(url), "QM1", "QM2") == 2
        _sim("put", str(folder), "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "3")
        deadline = time.monotonic() + 20
        while depth(_get(url), "QM1", "QM2") != 5 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert depth(_get(url), "QM1", "QM2") == 5
    finally:
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=20)
    assert rc == 0


def test_network_usage(tmp_path):
    r = mqroute("--network", "demo", "-m", "QMX", "--textfile", str(tmp_path / "x.prom"))
    assert r.returncode == 2 and "-m QMX: no such queue manager" in r.stderr
    r = mqroute("--network", "demo", "-c", "--textfile", str(tmp_path / "x.prom"))
    assert r.returncode == 2 and "no meaning with --network" in r.stderr
    r = mqroute("--network", str(tmp_path / "nothing"), "--textfile", str(tmp_path / "x.prom"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = mqroute("--network", "demo", "-m", "QM1", "--textfile", str(tmp_path / "x.prom"))
    assert r.returncode == 0, r.stderr
    assert depth((tmp_path / "x.prom").read_text(), "QM1", "QM2") == 0
    assert depth((tmp_path / "x.prom").read_text(), "QM2", "TARGET.Q") is None  # -m QM1 only


@pytest.mark.parametrize(("option", "blocked", "expected"), [
    ("--textfile", "prometheus_client",
     "mqroute: metrics needs prometheus_client: pip install 'mqroute[metrics]'"),
    ("--otlp", "opentelemetry",
     "mqroute: metrics --otlp needs the OpenTelemetry OTLP exporter: pip install "
     "'mqroute[otel]'"),
])
def test_a_missing_library_is_one_line_naming_its_extra(tmp_path, option, blocked, expected):
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1)})
    code = (f"import sys\nsys.modules[{blocked!r}] = None\n"
            "from mqroute.main import main\nsys.exit(main(sys.argv[1:]))\n")
    r = subprocess.run([sys.executable, "-c", code, "metrics", "--stats", str(stats), option,
                        str(tmp_path / "out")], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and r.stderr.splitlines() == [expected], r.stderr
    assert not (tmp_path / "out").exists()


def test_a_real_queue_manager_through_ibmmq(tmp_path, monkeypatch):
    """-m QMGR without --network asks a real queue manager through IBM's ibmmq (a fake of its
    API on a simulated queue manager): its depths and channel status, in-process."""
    from importlib import resources

    from tests.support.cli import run
    from tests.support.fake_ibmmq import make_fake_ibmmq
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator

    sim = Simulator(parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()))
    attach(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for _ in range(3):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
    sim.run(until=sim.now + 10)
    monkeypatch.setitem(sys.modules, "ibmmq", make_fake_ibmmq(sim))
    out = tmp_path / "qm1.prom"
    status, _, err = run("metrics", "-m", "QM1", "--textfile", str(out), "--wait", "5")
    assert status == 0, err
    text = out.read_text()
    assert depth(text, "QM1", "QM2") == 3
    assert values(text)[("mqroute_metrics_source_up", (("source", "status"),))] == 1
    stopped = [v for (name, labels), v in values(text).items()
               if name == "ibmmq_channel_status" and ("channel", "QM1.TO.QM2") in labels]
    assert stopped == [6]


def test_otlp_endpoint_once_and_every_interval(tmp_path):
    """--otlp-endpoint posts OTLP/HTTP protobuf to a collector on 127.0.0.1: once with --once,
    at every refresh when serving; each body parses with opentelemetry-proto."""
    import http.server
    import threading

    service = pytest.importorskip(
        "opentelemetry.proto.collector.metrics.v1.metrics_service_pb2")
    bodies: list[bytes] = []

    class Collector(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/metrics"
    stats = dump(tmp_path / "stats.dmp", {"APP.Q": (3, 1)})
    try:
        r = mqroute("--stats", str(stats), "--otlp-endpoint", url, "--once")
        assert r.returncode == 0, r.stderr
        assert len(bodies) == 1
        request = service.ExportMetricsServiceRequest.FromString(bodies[0])
        puts = [p.as_double for rm in request.resource_metrics for sm in rm.scope_metrics
                for m in sm.metrics if m.name == "ibmmq.queue.mqput_message_count"
                for p in m.gauge.data_points]
        assert puts == [3]
        proc = subprocess.Popen([sys.executable, "-m", "mqroute", "metrics", "--stats",
                                 str(stats), "--otlp-endpoint", url, "--interval", "0.3"],
                                cwd=ROOT, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            deadline = time.monotonic() + 20
            while len(bodies) < 4 and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
        assert len(bodies) >= 4  # the first, then one per refresh
    finally:
        server.shutdown()
        server.server_close()
