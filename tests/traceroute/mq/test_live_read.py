"""traceroute.mq.live: reading queues as they fill, with trace --save's no-loss rules.

A small in-memory queue manager stands in for MQ here (gets under syncpoint held until
commit, backout puts them back in order, a virtual clock that waits move on); the estate
folder and the CLI are tested over real processes elsewhere (tests/mqroute/test_live_cli.py).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.mq.archive import Archive, ArchiveError
from traceroute.mq.live import LiveSource, Stop, read_live
from traceroute.mq.transport import TransportError


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeQM:
    """Queues of (MQMD, data); arrivals scheduled on the clock; syncpoint kept in a list."""

    def __init__(self, clock: Clock, name: str = "QM1", *, depth: bool = False) -> None:
        self.qmgr_name = name
        self.clock_ = clock
        self.queues: dict[str, deque] = {}
        self.arrivals: list[tuple[float, str, tuple]] = []
        self.uncommitted: list[tuple[str, tuple]] = []
        self.commits = 0
        self.browsed: dict[str, int] = {}
        self.fail: dict[str, int] = {}
        if depth:
            self.depth = lambda queue, browse=False: len(self.queues.get(queue, ()))

    def clock(self) -> float:
        return self.clock_()

    def add(self, queue: str, n: int, *, at: float | None = None, tag: str = "m") -> None:
        for i in range(n):
            md = replace(MQMD(), msg_id=f"{tag}{queue}{i}".encode()[:24].ljust(24, b"."))
            item = (md, f"{tag}{i}".encode())
            if at is None:
                self.queues.setdefault(queue, deque()).append(item)
            else:
                self.arrivals.append((at, queue, item))

    def _arrive(self) -> None:
        due = [a for a in self.arrivals if a[0] <= self.clock_.now]
        for a in due:
            self.arrivals.remove(a)
            self.queues.setdefault(a[1], deque()).append(a[2])

    def get(self, queue, *, correl_id, wait, browse=False, syncpoint=True):
        if queue in self.fail:
            raise TransportError("MQOPEN", self.fail[queue], f"'{queue}'")
        deadline = self.clock_.now + wait
        while True:
            self._arrive()
            q = self.queues.get(queue, deque())
            if browse:
                n = self.browsed.get(queue, 0)
                if n < len(q):
                    self.browsed[queue] = n + 1
                    return q[n]
            elif q:
                item = q.popleft()
                self.uncommitted.append((queue, item))
                return item
            nxt = min((a[0] for a in self.arrivals if a[1] == queue), default=None)
            if nxt is not None and nxt <= deadline:
                self.clock_.now = max(self.clock_.now, nxt)
                continue
            self.clock_.now = max(self.clock_.now, deadline)
            return None

    def commit(self):
        self.commits += 1
        self.uncommitted.clear()

    def backout(self):
        for queue, item in reversed(self.uncommitted):
            self.queues.setdefault(queue, deque()).appendleft(item)
        self.uncommitted.clear()


class Printer:
    """A consumer: prints at once, or holds every `hold`-th message until the next one."""

    def __init__(self, hold_all: bool = False) -> None:
        self.printed: list[bytes] = []
        self.held: list[bytes] = []
        self.hold_all = hold_all

    def take(self, source, md, data):
        if self.hold_all:
            self.held.append(data)
        else:
            self.printed.append(data)

    def holding(self):
        return bool(self.held)

    def finish(self):
        self.printed += self.held
        self.held = []


def test_once_through_reads_what_is_there_and_commits_after_printing():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 3)
    qm.add("B", 2)
    qm.add("A", 1, at=5.0, tag="late")
    flushed = []
    p = Printer()
    r = read_live([LiveSource(qm, "A"), LiveSource(qm, "B")], p, clock=clock,
                  written=lambda: flushed.append(len(p.printed)))
    assert p.printed == [b"m0", b"m1", b"m2", b"m0", b"m1"]
    assert r.messages == r.committed == 5 and not qm.uncommitted
    assert flushed and flushed[0] >= 3  # flushed before the first commit, after printing
    assert clock.now == 0.0 and len(qm.arrivals) == 1  # did not wait for the late one


def test_once_through_stops_at_the_depth_it_started_with():
    clock = Clock()
    qm = FakeQM(clock, depth=True)
    qm.add("A", 2)
    p = Printer()
    original = qm.get  # a queue that fills as fast as it is read

    def get(queue, **kw):
        got = original(queue, **kw)
        if got is not None:
            qm.add(queue, 1, tag="new")
        return got

    qm.get = get  # type: ignore[method-assign]
    read_live([LiveSource(qm, "A")], p, clock=clock)
    assert p.printed == [b"m0", b"m1"]


def test_wait_zero_reads_until_every_queue_is_empty_and_wait_n_after_the_last_message():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 1)
    qm.add("A", 1, at=0.0, tag="x")
    p = Printer()
    read_live([LiveSource(qm, "A")], p, clock=clock, wait=0)
    assert p.printed == [b"m0", b"x0"] and clock.now == 0.0

    clock2 = Clock()
    qm2 = FakeQM(clock2)
    qm2.add("A", 1, at=3.0, tag="a")
    qm2.add("A", 1, at=7.5, tag="b")   # within 5 s of the one before
    qm2.add("A", 1, at=20.0, tag="c")  # 12.5 s after: not waited for
    p2 = Printer()
    read_live([LiveSource(qm2, "A")], p2, clock=clock2, wait=5)
    assert p2.printed == [b"a0", b"b0"]
    assert 12.5 <= clock2.now < 13.6


def test_browse_leaves_the_queue_and_commits_nothing():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 3)
    p = Printer()
    r = read_live([LiveSource(qm, "A")], p, browse=True, clock=clock)
    assert p.printed == [b"m0", b"m1", b"m2"] and len(qm.queues["A"]) == 3
    assert r.committed == 0 and qm.commits == 0


def test_a_consumer_that_holds_keeps_the_unit_of_work_until_it_prints():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 4)
    p = Printer(hold_all=True)
    seen = []
    read_live([LiveSource(qm, "A")], p, clock=clock, batch=2,
              written=lambda: seen.append((len(p.printed), len(qm.uncommitted))))
    assert p.printed == [b"m0", b"m1", b"m2", b"m3"]
    assert qm.commits == 1 and not qm.uncommitted
    assert seen[-1] == (4, 4)  # flushed with everything printed, before the one commit


def test_stop_ends_at_a_message_boundary_prints_and_commits_what_was_read():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 10)
    stop = Stop()
    p = Printer(hold_all=True)

    def take(source, md, data):
        p.held.append(data)
        if len(p.held) == 4:
            stop(2)

    p.take = take  # type: ignore[method-assign]
    r = read_live([LiveSource(qm, "A")], p, clock=clock, wait=60, stop=stop)
    assert r.interrupted and stop.signum == 2
    assert p.printed == [b"m0", b"m1", b"m2", b"m3"] and r.committed == 4
    assert [d for _, d in qm.queues["A"]] == [f"m{i}".encode() for i in range(4, 10)]


def test_a_failed_output_backs_out_everything_not_final():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 3)

    def fails():
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        read_live([LiveSource(qm, "A")], Printer(), clock=clock, written=fails)
    assert [d for _, d in qm.queues["A"]] == [b"m0", b"m1", b"m2"] and qm.commits == 0


def test_a_dump_that_cannot_take_a_message_backs_it_out(tmp_path):
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 3)
    dump = tmp_path / "saved.dmp"
    archive = Archive(str(dump))
    calls = {"n": 0}
    keep = archive.keep

    def flaky(label, md, data):
        calls["n"] += 1
        if calls["n"] == 3:
            raise ArchiveError("--save: disk full")
        keep(label, md, data)

    archive.keep = flaky  # type: ignore[method-assign]
    with pytest.raises(ArchiveError):
        read_live([LiveSource(qm, "A")], Printer(), clock=clock, archive=archive, batch=10)
    archive.close()
    assert [d for _, d in qm.queues["A"]] == [b"m0", b"m1", b"m2"]  # none final
    from pcf import dmpmqmsg

    assert [m.data for m in dmpmqmsg.read_file(dump).messages] == [b"m0", b"m1"]


def test_saved_and_printed_before_final(tmp_path):
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 2)
    dump = tmp_path / "saved.dmp"
    archive = Archive(str(dump))
    order = []
    real = archive.keep
    archive.keep = lambda *a: (order.append("save"), real(*a))  # type: ignore[method-assign]
    p = Printer()
    original_commit = qm.commit
    qm.commit = lambda: (order.append("commit"), original_commit())  # type: ignore
    r = read_live([LiveSource(qm, "A")], p, clock=clock, archive=archive,
                  written=lambda: order.append("flush"))
    archive.close()
    assert r.saved == 2 and order.index("commit") > order.index("flush") > 0
    assert order[:2] == ["save", "save"]


def test_an_unknown_queue_is_one_line_the_others_are_read_an_optional_one_is_quiet():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 1)
    qm.fail = {"NOPE": mqc.MQRC_UNKNOWN_OBJECT_NAME, "MAYBE": mqc.MQRC_UNKNOWN_OBJECT_NAME,
               "OFF": mqc.MQRC_GET_INHIBITED}
    lines = []
    p = Printer()
    r = read_live([LiveSource(qm, "NOPE"), LiveSource(qm, "A"),
                   LiveSource(qm, "MAYBE", optional=True),
                   LiveSource(qm, "OFF", optional=True)], p, clock=clock, problem=lines.append)
    assert p.printed == [b"m0"]
    assert lines == ["QM1:NOPE: MQOPEN 'NOPE' failed: MQRC_UNKNOWN_OBJECT_NAME (2085)",
                     "QM1:OFF: MQOPEN 'OFF' failed: MQRC_GET_INHIBITED (2016)"]
    assert r.problems == lines


def test_at_most_maxumsgs_held_then_what_was_read_is_printed():
    clock = Clock()
    qm = FakeQM(clock)
    qm.add("A", 30)
    p = Printer(hold_all=True)
    r = read_live([LiveSource(qm, "A")], p, clock=clock, wait=0, max_uncommitted=12,
                  batch=5)
    assert r.limited and len(p.printed) == 12 and len(qm.queues["A"]) == 18


def test_two_queue_managers_each_commit_their_own_gets():
    clock = Clock()
    qm1, qm2 = FakeQM(clock, "QM1"), FakeQM(clock, "QM2")
    qm1.add("T", 2)
    qm2.add("T", 3)
    p = Printer()
    r = read_live([LiveSource(qm1, "T"), LiveSource(qm2, "T")], p, clock=clock)
    assert r.committed == 5 and qm1.commits == 1 and qm2.commits == 1
