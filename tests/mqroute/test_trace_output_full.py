"""Without --save, a report's get is committed only once its display is written: standard
output that cannot be written (a full disk) backs the reports out, says so, exits 2."""

from __future__ import annotations

import errno
import io
import sys

from mqroute.main import main
from traceroute.sim import simulator as simulator_module

ARGS = ["trace", "--network", "demo", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
        "ACTIV.REPLY.Q", "-v", "outline"]


class _FullDisk(io.RawIOBase):
    """A file that takes `room` bytes, then says No space left on device."""

    def __init__(self, room: int) -> None:
        self.room = room

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        if len(b) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(b)
        return len(b)


def _made(monkeypatch) -> list:
    made = []
    real = simulator_module.Simulator

    def recording(network, **kw):
        made.append(real(network, **kw))
        return made[-1]

    monkeypatch.setattr(simulator_module, "Simulator", recording)
    return made


def test_unwritable_output_backs_the_reports_out(monkeypatch, capsys):
    made = _made(monkeypatch)
    full = io.TextIOWrapper(io.BufferedWriter(_FullDisk(room=100), buffer_size=1 << 16))
    monkeypatch.setattr(sys, "stdout", full)
    status = main(ARGS)
    err = capsys.readouterr().err
    assert status == 2
    assert "the output cannot be written" in err and "backed out" in err
    sim = made[0]
    sim.run()
    assert len(sim.browse("QM1", "ACTIV.REPLY.Q")) >= 2  # the reports are still there


def test_written_output_commits(monkeypatch, capsys):
    made = _made(monkeypatch)
    assert main(ARGS) == 0
    assert "AMQ8652" in capsys.readouterr().out
    sim = made[0]
    sim.run()
    assert sim.browse("QM1", "ACTIV.REPLY.Q") == []
