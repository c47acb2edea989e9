"""Joining MQCFH MsgSeqNumber sequences (more than 100 objects) back into one record set.

Messages of one sequence share kind, queue manager, interval (and, for accounting, the
connection and its SeqNumber); MsgSeqNumber runs 1, 2, ... and the last has Control
MQCFC_LAST. A lone message (1, LAST) passes straight through; a split one waits until it
is complete. Whatever is still incomplete at the end is used anyway and reported as such.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pcf import mqc
from traceroute.stats.model import Sequence, StatsRecord
from traceroute.stats.parse import StatsMessage, records

#: Sequences waiting for their other parts at once (older ones are released incomplete).
MAX_PENDING = 10_000


def missing_ranges(present: Iterable[int], first: int, top: int) -> tuple[tuple[int, int], ...]:
    """The numbers from `first` to `top` that are not `present`, as (from, to) ranges:
    the work is in the numbers present, never in the size of a gap (a message may claim
    any number: a hole of 2**31 is one range)."""
    out = []
    expected = first
    for n in sorted({n for n in present if first <= n <= top}):
        if n > expected:
            out.append((expected, n - 1))
        expected = n + 1
    if expected <= top:
        out.append((expected, top))
    return tuple(out)


def show_ranges(ranges: Iterable[tuple[int, int]]) -> str:
    """(1, 1), (3, 9) -> '1, 3-9'."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


@dataclass(slots=True)
class Joined:
    """The messages of one sequence, in MsgSeqNumber order, and whether it is whole."""

    messages: list[StatsMessage] = field(default_factory=list)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The MsgSeqNumbers present."""
        return tuple(m.header.msg_seq_number for m in self.messages)

    @property
    def last(self) -> int | None:
        """The MsgSeqNumber of the message with Control LAST, if it arrived."""
        for m in self.messages:
            if m.header.control == mqc.MQCFC_LAST:
                return m.header.msg_seq_number
        return None

    @property
    def missing(self) -> tuple[tuple[int, int], ...]:
        """MsgSeqNumbers known to be missing (below the highest seen or the LAST one), as
        (from, to) ranges."""
        top = self.last or max(self.numbers, default=0)
        return missing_ranges(self.numbers, 1, top)

    @property
    def complete(self) -> bool:
        """True when the LAST message arrived and no number before it is missing."""
        return self.last is not None and not self.missing

    @property
    def sequence(self) -> Sequence:
        """The provenance every record of this sequence carries."""
        return Sequence(self.numbers, self.complete, self.missing,
                        tuple(dict.fromkeys(m.where for m in self.messages)))

    def records(self) -> list[StatsRecord]:
        """The typed records of every message of the sequence, in order."""
        seq = self.sequence
        out: list[StatsRecord] = []
        for m in self.messages:
            out.extend(records(m, seq))
        return out

    def add(self, message: StatsMessage) -> None:
        """Insert a message keeping MsgSeqNumber order."""
        self.messages.append(message)
        self.messages.sort(key=lambda m: m.header.msg_seq_number)


class SequenceJoiner:
    """`join_sequences` one message at a time (a live reader's messages arrive one by one):
    `add` gives the sequences it completed, `flush` the incomplete rest (the end)."""

    def __init__(self, *, max_pending: int = MAX_PENDING) -> None:
        self.max_pending = max_pending
        self.pending: dict[tuple, Joined] = {}

    def add(self, m: StatsMessage) -> list[Joined]:
        """Take one message; the sequences now released (whole, or pushed out)."""
        h = m.header
        if h.msg_seq_number == 1 and h.control == mqc.MQCFC_LAST:
            return [Joined([m])]
        out: list[Joined] = []
        key = m.sequence_key
        joined = self.pending.get(key)
        if joined is not None and h.msg_seq_number in joined.numbers:
            out.append(self.pending.pop(key))  # a second sequence with the same key
            joined = None
        if joined is None:
            if len(self.pending) >= self.max_pending:
                out.append(self.pending.pop(next(iter(self.pending))))
            joined = self.pending[key] = Joined()
        joined.add(m)
        if joined.complete:
            out.append(self.pending.pop(key))
        return out

    def flush(self) -> list[Joined]:
        """The sequences still waiting for parts (released incomplete)."""
        out = list(self.pending.values())
        self.pending.clear()
        return out


def join_sequences(messages: Iterable[StatsMessage], *,
                   max_pending: int = MAX_PENDING) -> Iterator[Joined]:
    """Group messages into sequences; complete ones as soon as whole, the rest at the end."""
    joiner = SequenceJoiner(max_pending=max_pending)
    for m in messages:
        yield from joiner.add(m)
    yield from joiner.flush()
