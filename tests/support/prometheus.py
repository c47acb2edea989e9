"""A real Prometheus server (Debian's `prometheus` package) and `mqroute metrics` processes
for it to scrape, all on 127.0.0.1, for the tests that check the metrics as Prometheus
stores them. Without the binary the tests skip, saying how to get it (.ci/run installs it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def prometheus_binary() -> str:
    """The prometheus server's path, or skip the test saying why."""
    found = shutil.which("prometheus") or (
        "/usr/bin/prometheus" if os.access("/usr/bin/prometheus", os.X_OK) else None)
    if found is None:
        pytest.skip("no prometheus server here (Debian: apt-get install prometheus; .ci/run "
                    "installs it)")
    return found


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MetricsProcess:
    """`mqroute metrics ... --listen 127.0.0.1:0` running; `address` is where it serves."""

    def __init__(self, *args: str, interval: float = 1.0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mqroute", "metrics", *args, "--listen", "127.0.0.1:0",
             "--interval", str(interval)], cwd=ROOT, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        line = self.proc.stderr.readline()
        found = re.search(r"http://([\d.]+:\d+)/metrics", line)
        if found is None:
            self.stop()
            raise AssertionError(f"mqroute metrics did not start: {line}")
        self.address = found.group(1)

    def stop(self) -> str:
        """SIGTERM, wait; what it wrote on stderr afterwards."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.stderr.read() if self.proc.stderr else ""


class Prometheus:
    """A prometheus server scraping `targets` (job -> host:port) every second."""

    def __init__(self, folder: Path, targets: dict[str, str]) -> None:
        binary = prometheus_binary()
        folder.mkdir(parents=True, exist_ok=True)
        config = folder / "prometheus.yml"
        jobs = "".join(
            f"  - job_name: {job}\n    static_configs:\n      - targets: ['{addr}']\n"
            for job, addr in targets.items())
        config.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                          f"scrape_configs:\n{jobs}")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (folder / "prometheus.log").open("w")
        self.proc = subprocess.Popen(
            [binary, f"--config.file={config}", f"--storage.tsdb.path={folder / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_ready(folder)

    def _wait_ready(self, folder: Path, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("prometheus exited: " +
                                     (folder / "prometheus.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(self.url + "/-/ready", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError("prometheus did not become ready")

    def query(self, expr: str) -> list[dict]:
        """The instant vector of a PromQL expression: [{'metric': labels, 'value': float}]."""
        url = f"{self.url}/api/v1/query?{urllib.parse.urlencode({'query': expr})}"
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
        assert body["status"] == "success", body
        return [{"metric": x["metric"], "value": float(x["value"][1])}
                for x in body["data"]["result"]]

    def wait_for(self, expr: str, timeout: float = 30) -> list[dict]:
        """Query until the expression has a result (scrapes run every second)."""
        deadline = time.monotonic() + timeout
        while True:
            result = self.query(expr)
            if result or time.monotonic() > deadline:
                return result
            time.sleep(0.3)

    def targets(self) -> list[dict]:
        """The scrape targets' health as Prometheus reports it."""
        with urllib.request.urlopen(self.url + "/api/v1/targets", timeout=10) as r:
            return json.load(r)["data"]["activeTargets"]

    def stop(self) -> None:
        """Stop the server."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
