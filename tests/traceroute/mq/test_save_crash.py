"""Issue 17, class 6 and its crash test: `--save` appends, is durable before the commit, and
no report is ever lost — whatever point between get, save and commit the process dies at.

The process's death is simulated (hypothesis picks the step): a `Death` exception thrown
from inside a get, a write (possibly torn: only part of the record reaches the file), an
fsync or a commit, after which the queue manager does what MQ does for a broken connection
(backs the unit of work out). Afterwards every report is still on its queue or, byte for
byte, in the dump; an earlier dump's bytes are untouched; and a second run saves the rest
into the same, still readable, dump.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from dataclasses import replace
from importlib import resources
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcf import dmpmqmsg
from pcf.mqmd import MQMD
from traceroute.mq import archive as archive_module
from traceroute.mq.archive import Archive, ArchiveError
from traceroute.mq.collect import Source, collect
from traceroute.mq.transport import SimTransport
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

DEMO = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
QUEUE = "ACTIV.REPLY.Q"
CORREL = b"C" * 24


class Death(BaseException):
    """The process is killed here (nothing catches a BaseException of this kind)."""


def _messages(n: int, tag: str = "M") -> list[tuple[MQMD, bytes]]:
    return [(replace(MQMD(), msg_id=f"{tag}{i:023d}".encode(), correl_id=CORREL),
             f"report {tag}{i} ".encode() * (i + 1) + bytes(range(256))) for i in range(n)]


def _simulator(messages) -> Simulator:
    sim = Simulator(parse_mqsc(DEMO))
    for md, data in reversed(messages):
        sim.restore("QM1", QUEUE, md, data)
    sim.restore("QM1", QUEUE, replace(MQMD(), msg_id=b"O" * 24, correl_id=b"X" * 24), b"other")
    return sim


class _Steps:
    """Counts the steps of a run and kills it at step `die_at` (a write may be torn)."""

    def __init__(self, die_at: int | None, torn: float) -> None:
        self.die_at, self.torn, self.n = die_at, torn, 0
        self.tore = False  # a partial record reached the file

    def step(self) -> bool:
        self.n += 1
        return self.n == self.die_at


class _DyingTransport(SimTransport):
    steps: _Steps

    def get(self, *args, **kw):
        if self.steps.step():
            raise Death("in MQGET")
        return super().get(*args, **kw)

    def commit(self) -> None:
        if self.steps.step():
            raise Death("in MQCMIT")
        super().commit()


class _DyingArchive(Archive):
    steps: _Steps

    def _write_all(self, chunk: bytes) -> None:
        if self.steps.step():
            part = chunk[:int(len(chunk) * self.steps.torn)]
            os.write(self._fd, part)  # a torn write: part of the record reached the disk
            self.steps.tore = bool(part)
            raise Death("in write")
        super()._write_all(chunk)


def _run(path: str, sim: Simulator, steps: _Steps | None) -> tuple[Archive, SimTransport]:
    if steps is None:
        transport, archive = SimTransport(sim, "QM1"), Archive(path)
    else:
        transport = _DyingTransport(sim, "QM1")
        transport.steps = steps
        archive = _DyingArchive(path)
        archive.steps = steps
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if steps is not None and steps.step():
            raise Death("in fsync")
        real_fsync(fd)

    try:
        with mock.patch.object(archive_module.os, "fsync", fsync):
            collect([Source(transport, QUEUE)], CORREL, wait=0.0, keep=archive.keep)
            transport.commit()
    except Death:
        transport.backout()  # the queue manager backs out a dead connection's unit of work
    finally:
        archive.close()
    return archive, transport


def _ids(messages) -> list[tuple[bytes, bytes]]:
    return [(md.msg_id, data) for md, data in messages]


def _dumped(path: str) -> list[tuple[bytes, bytes]]:
    return [(m.md.msg_id, m.data) for m in dmpmqmsg.iter_file(path, on_error=lambda e: None)]


def _on_queue(sim: Simulator) -> list[tuple[bytes, bytes]]:
    return [(md.msg_id, data) for md, data in sim.browse("QM1", QUEUE)
            if md.correl_id == CORREL]


def _earlier_dump(path, kind: str) -> bytes:
    if kind == "none":
        return b""
    text = dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, data) for md, data in
                           _messages(2, "E")]).encode("latin-1")
    if kind == "torn":  # an earlier run died in the middle of a record
        text += b"* From QM1:Q\nA VER 2\nA RPT 0\nX 0102"
    path.write_bytes(text)
    return text


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 5), die_at=st.integers(1, 30), torn=st.floats(0, 1),
       earlier=st.sampled_from(["none", "complete", "torn"]))
def test_death_anywhere_loses_no_report(tmp_path_factory, n, die_at, torn, earlier):
    folder = tmp_path_factory.mktemp("crash")
    path = folder / "saved.dmp"
    before = _earlier_dump(path, earlier)
    reports = _messages(n)
    sim = _simulator(reports)

    steps = _Steps(die_at, torn)
    _run(str(path), sim, steps)

    after = path.read_bytes() if path.exists() else b""
    assert after.startswith(before)  # earlier dumps intact
    dumped, queued = set(_dumped(str(path))) if after else set(), set(_on_queue(sim))
    for report in _ids(reports):
        assert report in dumped or report in queued, "a report was lost"
    assert ("O" * 24).encode() in {md.msg_id for md, _ in sim.browse("QM1", QUEUE)}

    # the next run (nobody dies) saves the rest into the same dump
    _run(str(path), sim, None)
    assert _on_queue(sim) == []
    final = path.read_bytes()
    assert final.startswith(after)
    dumped = set(_dumped(str(path)))
    assert all(report in dumped for report in _ids(reports))
    if earlier != "none":
        assert all(m in dumped for m in _ids(_messages(2, "E")))
    if earlier != "torn" and not steps.tore:
        dmpmqmsg.read_file(str(path))  # nothing torn anywhere: every line of it is valid


def test_append_keeps_old_messages_and_stays_one_dump(tmp_path):
    path = tmp_path / "saved.dmp"
    first, second = _messages(2, "A"), _messages(3, "B")
    _run(str(path), _simulator(first), None)
    old = path.read_bytes()
    _run(str(path), _simulator(second), None)
    assert path.read_bytes().startswith(old)
    dump = dmpmqmsg.read_file(str(path))  # strict: one valid dmpmqmsg file
    assert [(m.md.msg_id, m.data) for m in dump.messages] == _ids([*first, *second])


def test_nothing_collected_leaves_the_file_alone(tmp_path):
    path = tmp_path / "saved.dmp"
    path.write_bytes(b"* an earlier dump\n\n")
    _run(str(path), _simulator([]), None)
    assert path.read_bytes() == b"* an earlier dump\n\n"
    fresh = tmp_path / "fresh.dmp"
    Archive(str(fresh)).close()
    assert fresh.read_bytes() == b""


def test_a_file_that_is_not_a_dump_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(ArchiveError, match="not a dmpmqmsg dump"):
        Archive(str(path))
    assert path.read_text() == "my notes\n"


def test_full_disk_backs_out_and_keeps_nothing_half_written(tmp_path):
    path = tmp_path / "saved.dmp"
    first = _messages(1, "A")
    _run(str(path), _simulator(first), None)
    old = path.read_bytes()
    reports = _messages(3)
    sim = _simulator(reports)
    transport = SimTransport(sim, "QM1")
    archive = Archive(str(path))
    real = archive._write_all
    calls = []

    def full(chunk: bytes) -> None:  # the second record finds the disk full half-way
        calls.append(chunk)
        if len(calls) == 2:
            os.write(archive._fd, chunk[:50])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(chunk)

    archive._write_all = full
    with pytest.raises(ArchiveError, match="No space left on device"):
        collect([Source(transport, QUEUE)], CORREL, wait=0.0, keep=archive.keep)
    transport.close()  # backs out
    archive.close()
    assert path.read_bytes().startswith(old)
    dump = dmpmqmsg.read_file(str(path))  # the half record was cut off again
    assert [(m.md.msg_id, m.data) for m in dump.messages] == _ids([*first, reports[0]])
    assert set(_on_queue(sim)) == set(_ids(reports[1:]))


def test_dev_full_api():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    sim = _simulator(_messages(2))
    transport = SimTransport(sim, "QM1")
    archive = Archive("/dev/full")
    with pytest.raises(ArchiveError):
        collect([Source(transport, QUEUE)], CORREL, wait=0.0, keep=archive.keep)
    transport.close()
    archive.close()
    assert len(_on_queue(sim)) == 2


def _cli(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqroute", "trace", "--network", "demo",
                           "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", QUEUE, *words],
                          capture_output=True, text=True, timeout=120)


def test_cli_twice_and_with_n_appends(tmp_path):
    path = tmp_path / "saved.dmp"
    assert _cli("--save", str(path), "-v", "none").returncode == 0
    one = path.read_bytes()
    assert _cli("--save", str(path), "-v", "none", "--seed", "2").returncode == 0
    two = path.read_bytes()
    done = _cli("--save", str(path), "-n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert path.read_bytes() == two and two.startswith(one) and len(two) > len(one)
    count = len(dmpmqmsg.read_file(str(path)).messages)
    assert count == 2 * len(dmpmqmsg.read(one.decode("latin-1")).messages)


def test_cli_dev_full_exits_non_zero_and_says_so():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    done = _cli("--save", "/dev/full")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "No space left on device" in done.stderr and "backed out" in done.stderr


def test_cli_refuses_a_file_that_is_not_a_dump(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    done = _cli("--save", str(path))
    assert done.returncode == 2 and "not a dmpmqmsg dump" in done.stderr
    assert "Traceback" not in done.stderr and path.read_text() == "my notes\n"
    done = _cli("--save", str(tmp_path / "no" / "such" / "folder.dmp"))
    assert done.returncode == 2 and "No such file or directory" in done.stderr


def test_one_writer_at_a_time(tmp_path):
    path = tmp_path / "saved.dmp"
    first = Archive(str(path))
    try:
        with pytest.raises(ArchiveError, match="another process is saving"):
            Archive(str(path))
    finally:
        first.close()
    Archive(str(path)).close()  # free again once the first is closed
