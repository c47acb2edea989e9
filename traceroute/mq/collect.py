"""Sending trace-route messages and collecting what comes back, over any Transport.

No report is lost: destructive gets run under syncpoint and are committed only once the
message is safe — written to the archive (`--save`), or, without one, displayed — and an
interruption backs them out, so they stay on their queues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from pcf.errors import PCFError
from pcf.mqmd import MQMD
from traceroute.mq.transport import Transport
from traceroute.records.parse import NotActivityData, Record, parse_message
from traceroute.records.tracemsg import TraceOptions, build_trace_message
from traceroute.routes import Destinations, Route, build_routes, settled
from traceroute.routes.publications import copies_of

#: How long one get waits before the other sources are polled (seconds).
POLL = 1.0


@dataclass(frozen=True, slots=True)
class Sent:
    """A trace-route message that was put: its MsgId and where the put resolved to."""

    msg_id: bytes
    md: MQMD
    resolved_queue: str
    qmgr: str


def send_trace(transport: Transport, options: TraceOptions, *, reply_q: str) -> Sent:
    """Build the trace-route message for `options` and put it; raises TransportError."""
    opts = replace(options, reply_to_q=reply_q) if reply_q else options
    md, data = build_trace_message(opts, msg_id=bytes(24))
    handle = transport.open_output(opts.target_q, target_qmgr=opts.target_q_mgr,
                                   topic=opts.target_topic,
                                   bind_not_fixed=opts.bind_not_fixed)
    put = transport.put(handle, md, data)
    return Sent(put.msg_id, put, getattr(handle, "resolved_queue", opts.target_q),
                transport.qmgr_name)


@dataclass
class Source:
    """A queue to collect from, on a connected queue manager."""

    transport: Transport
    queue: str

    @property
    def label(self) -> str:
        """'QMGR:QUEUE'."""
        return f"{self.transport.qmgr_name}:{self.queue}"


@dataclass
class Collection:
    """What was collected for one CorrelId (and the copies of what it published), and what
    could not be read."""

    correl_id: bytes
    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    messages: int = 0
    destinations: Destinations | None = None

    @property
    def routes(self) -> list[Route]:
        """The routes the records make (normally one: a publication's copies are its
        branches)."""
        return build_routes(self.records, self.destinations)

    @property
    def complete(self) -> bool:
        """True once the route ends terminally with nothing missing (and no copy of a
        publication may still be on its way elsewhere)."""
        routes = self.routes
        return len(routes) == 1 and settled(routes[0], self.destinations)


Keep = Callable[[str, MQMD, bytes], None]


def collect(sources: Iterable[Source], correl_id: bytes, *, wait: float, browse: bool = False,
            keep: Keep | None = None, stop_when_complete: bool = True,
            destinations: Destinations | None = None) -> Collection:
    """Gather every report and reply with this CorrelId from the sources, for up to `wait` s,
    and those of every copy a publication among them made (CorrelId: the copy's MsgId, from
    its Publish operation: dspmqrte's topic mode traces every message the publish caused).

    Each message is passed to `keep` (the archive) and then committed; without `keep` the
    gets stay uncommitted for the caller to commit after displaying. Collection stops early
    once the route is complete (checked whenever the queues fall quiet, and each time the
    records have doubled: linear work, however many reports a looping message makes).
    """
    sources = list(sources)
    found = Collection(correl_id, destinations=destinations)
    wanted = [correl_id]  # and the copies of publications, as they are learnt of
    known = {correl_id}
    clock = sources[0].transport.clock
    deadline = clock() + wait
    asked = 0  # how many records there were when completeness was last asked
    while True:
        progress = False
        for n, src in enumerate(sources):
            for k, key in enumerate(list(wanted)):
                pause = max(0.0, min(POLL, deadline - clock())) if n == k == 0 else 0.0
                got = src.transport.get(src.queue, correl_id=key, wait=pause, browse=browse)
                if got is None:
                    continue
                progress = True
                md, data = got
                found.messages += 1
                if keep is not None:
                    keep(src.label, md, data)
                    src.transport.commit()
                try:
                    record = parse_message(md, data, source=src.label)
                except (PCFError, NotActivityData) as e:
                    found.problems.append(f"{src.label}: message {md.msg_id.hex()}: {e}")
                    continue
                found.records.append(record)
                for activity in record.activities:
                    for copy in copies_of(activity):
                        if copy not in known:
                            known.add(copy)
                            wanted.append(copy)
        # is the route complete? Asked when the queues fell quiet, or the records doubled
        # since last asked: building routes for every arriving report would be quadratic
        grown = len(found.records) != asked and (not progress or len(found.records) >= 2 * asked)
        if stop_when_complete and grown:
            asked = len(found.records)
            if found.complete:
                return found
        if not progress and clock() >= deadline:
            return found
