"""`mqroute trace` arguments that cannot work are refused with one line and exit 2, before
anything is sent or got (issue 17: no traceback, exit code 2 for usage errors)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mqroute.commands.trace import MAX_WAIT, correl_id_of
from mqroute.main import main

BASE = ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q"]


@pytest.mark.parametrize("extra, words", [
    (["-i", "zz"], "-i zz: a CorrelId is up to 48 hex digits"),
    (["-i", "414"], "an even number"),
    (["-i", "41" * 25], "up to 48 hex digits"),
    (["-w", "-5"], "-w -5: seconds to wait are 0 to"),
    (["-w", "inf"], "-w inf"),
    (["-w", "nan"], "-w nan"),
    (["-w", str(MAX_WAIT + 1)], "2147483647 ms"),
    (["--count", "0"], "--count 0: send at least 1"),
    (["--latency", "-1"], "--latency -1"),
    (["--also", "QM2"], "--also QM2: give QMGR:QUEUE"),
    (["--also", "QM2:"], "the queue is missing"),
])
def test_refused(capsys, extra, words):
    assert main([*BASE, *extra]) == 2
    out, err = capsys.readouterr()
    assert words in err and err.count("\n") == 1 and "AMQ8653" not in out


def test_correl_id_is_padded_as_mq_pads_it():
    assert correl_id_of("41") == b"A" + bytes(23)
    assert correl_id_of("ab" * 24) == b"\xab" * 24


def test_a_long_wait_on_a_stuck_route_is_bounded_by_virtual_time(tmp_path, capsys):
    from importlib import resources

    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    path = tmp_path / "stuck.mqsc"
    path.write_text(text + "\n* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n")
    argv = ["trace", "--network", str(path), "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
            "ACTIV.REPLY.Q", "-v", "none", "-w", "20000"]
    assert main(argv) == 4  # waiting on the transmission queue


def test_subprocess_no_traceback():
    done = subprocess.run([sys.executable, "-m", "mqroute", *BASE, "-i", "not-hex"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("mqroute: trace: -i not-hex:")
