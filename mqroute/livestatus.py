"""Where a message stopped, explained by what is true now (`trace`, `show`, `follow`).

`destinations` asks the queue managers where a subscription sends its publications
(Inquire Subscription by SubId, as seed 002 says a Publish operation's SubId is for), so
that a publication's branches name the subscriber's queue manager and queue.

A route that ends waiting on a transmission queue, in transit on a channel or on a queue
(a dead-letter queue included), and a journey that ends on a queue, on a transmission queue
or in transit, is a `Stop`; the queue manager there is asked (DISPLAY QSTATUS of the queue,
DISPLAY CHSTATUS of the channel that should move it, found by its XMITQ when the data does
not name it) and the answer becomes one sentence (`traceroute.status.explain`) and the
status objects `--json` carries as "live_status" (`mqroute status --json`'s shape). Only
asks: nothing changes on any queue manager.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from mqroute.estates import Admins
from pcf import mqc
from pcf.model import StringFilter
from traceroute.status import ChannelStatus, CommandFailed, QueueStatus
from traceroute.status.commands import reason_text
from traceroute.status.explain import QUEUE, TRANSIT, XMITQ, Stop, explain

_SENDERS = ("SDR", "SVR")


def stop_of_route(route) -> Stop | None:
    """Where a trace-route (or activity-report) route stopped, if it is waiting somewhere."""
    from traceroute.routes.verdict import Verdict

    loc = route.location
    if not loc.queue_manager:
        return None
    if route.verdict is Verdict.WAITING_ON_XMITQ and loc.queue:
        return Stop(XMITQ, loc.queue_manager, loc.queue, loc.channel or "")
    if route.verdict is Verdict.WAITING_ON_XMITQ and loc.remote_queue_manager:
        # a publication's copy for another queue manager: which xmitq is asked there
        return Stop(XMITQ, loc.queue_manager, "", loc.channel or "", loc.remote_queue_manager)
    if route.verdict is Verdict.INCOMPLETE and loc.channel:
        return Stop(TRANSIT, loc.queue_manager, loc.queue or "", loc.channel)
    if route.verdict is Verdict.DEAD_LETTERED and loc.queue:
        return Stop(QUEUE, loc.queue_manager, loc.queue)
    return None


def stop_of_journey(journey) -> Stop | None:
    """Where a journey (application activity trace) stopped, if it is waiting somewhere."""
    from traceroute.journeys.verdict import JourneyVerdict

    loc = journey.last_location
    if not loc.queue_manager:
        return None
    if journey.verdict is JourneyVerdict.ON_XMITQ and loc.queue:
        return Stop(XMITQ, loc.queue_manager, loc.queue, loc.channel or "")
    if journey.verdict is JourneyVerdict.IN_TRANSIT and loc.channel:
        return Stop(TRANSIT, loc.queue_manager, loc.queue or "", loc.channel)
    if journey.verdict in (JourneyVerdict.ON_QUEUE, JourneyVerdict.DEAD_LETTERED) and loc.queue:
        return Stop(QUEUE, loc.queue_manager, loc.queue)
    return None


def _queue(admin, name: str) -> tuple[QueueStatus | None, str]:
    try:
        found = admin.queue_status(name)
    except CommandFailed as e:
        return None, f"queue {name} is not there now ({reason_text(e.reason)})"
    return (found[0] if found else None), ""


def _serving(admin, xmitq: str) -> tuple[str, object | None]:
    """The sender channel whose XMITQ is `xmitq` (name, definition)."""
    where = StringFilter(mqc.MQCACH_XMIT_Q_NAME, mqc.MQCFOP_EQUAL, xmitq)
    try:
        defined = admin.channels("*", where=where)
    except CommandFailed:
        return "", None
    for d in defined:
        if d.attrs.get("CHLTYPE") in _SENDERS:
            return d.name, d
    return "", None


def _xmitq_to(admin, remote: str) -> str:
    """The transmission queue the queue manager asked uses for `remote`, as its name
    resolution would choose: one named after it, the cluster's, else DEFXMITQ ('' if
    none)."""
    try:
        named = admin.queues(remote)
    except CommandFailed:
        named = []
    if any(d.attrs.get("USAGE") == "XMITQ" for d in named):
        return remote
    try:
        if admin.cluster_qmgrs(remote):
            return "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
    except CommandFailed:
        pass
    return admin.queue_manager().attrs.get("DEFXMITQ", "")


def ask(admin, stop: Stop) -> tuple[str, list[QueueStatus | ChannelStatus]]:
    """Ask the queue manager of `stop` about it: the sentence and the status objects."""
    if stop.kind == XMITQ and not stop.queue and stop.remote:
        stop = Stop(stop.kind, stop.qmgr, _xmitq_to(admin, stop.remote), stop.channel)
    queue, missing = _queue(admin, stop.queue) if stop.queue else (None, "")
    channel_name, definition = stop.channel, None
    if stop.kind == XMITQ and not channel_name and stop.queue:
        channel_name, definition = _serving(admin, stop.queue)
    channel = None
    if channel_name:
        current = [c for c in admin.channel_status(channel_name) if c.instance == "CURRENT"]
        channel = current[0] if current else None
        if channel is None:
            if definition is None:
                try:
                    found = admin.channels(channel_name)
                except CommandFailed:
                    found = []
                definition = found[0] if found else None
            if definition is not None:
                kind = definition.attrs.get("CHLTYPE", "")
                channel = ChannelStatus(admin.qmgr, channel_name, kind, "INACTIVE",
                                        conname=definition.attrs.get("CONNAME", ""),
                                        xmitq=definition.attrs.get("XMITQ", ""))
        if stop.kind == TRANSIT and queue is None and channel is not None and channel.xmitq:
            queue, _ = _queue(admin, channel.xmitq)
    stop = Stop(stop.kind, stop.qmgr, stop.queue or (queue.name if queue else ""),
                channel_name)
    statuses = [s for s in (queue, channel) if s is not None]
    return explain(stop, queue=queue, channel=channel, missing=missing), statuses


class Explainer:
    """Asks once per stop, and gives up on a queue manager that cannot be asked (one
    problem line); call it with a route or journey: (sentence, live_status) or None."""

    def __init__(self, admins: Admins | None, stop_of: Callable[[object], Stop | None],
                 problem: Callable[[str], None]) -> None:
        self.admins = admins
        self.stop_of = stop_of
        self.problem = problem
        self._asked: dict[Stop, tuple[str, list[dict]]] = {}
        self._failed: set[str] = set()

    def __call__(self, item) -> tuple[str, list[dict]] | None:
        from traceroute.mq.admin import AdminError
        from traceroute.mq.client import PymqiMissing
        from traceroute.mq.transport import TransportError

        stop = self.stop_of(item)
        if stop is None or self.admins is None or stop.qmgr in self._failed:
            return None
        if stop not in self._asked:
            try:
                sentence, statuses = ask(self.admins(stop.qmgr), stop)
            except (TransportError, AdminError, CommandFailed, PymqiMissing) as e:
                self._failed.add(stop.qmgr)
                self.problem(f"cannot ask {stop.qmgr} why the message waits there: {e}")
                return None
            self._asked[stop] = (sentence, [s.to_json() for s in statuses])
        return self._asked[stop]


@contextlib.contextmanager
def live_explainer(args, stop_of: Callable[[object], Stop | None],
                   problem: Callable[[str], None]) -> Iterator[Explainer]:
    """An Explainer over the queue managers of -m / --network / the connection options
    (one that explains nothing when none is given: `show` and `follow` of files alone)."""
    from mqroute.estates import administration, simulated_specs

    if not (getattr(args, "qmgr", "") or simulated_specs(args)):
        yield Explainer(None, stop_of, problem)
        return
    with administration(args) as admins:
        yield Explainer(admins, stop_of, problem)


def destinations(admins: Admins | None, problem: Callable[[str], None]
                 ) -> Callable[[str, bytes], object | None] | None:
    """(queue manager, SubId) -> Location(DESTQMGR or the queue manager, DEST) of the
    subscription, asked once each (None: no queue manager to ask; a queue manager that
    cannot be asked is said once and asked no more)."""
    if admins is None:
        return None
    from traceroute.mq.admin import AdminError
    from traceroute.mq.client import PymqiMissing
    from traceroute.mq.transport import TransportError
    from traceroute.routes import Location

    known: dict[tuple[str, bytes], Location | None] = {}
    failed: set[str] = set()

    def lookup(qmgr: str, sub_id: bytes) -> Location | None:
        key = (qmgr, sub_id)
        if key in known or qmgr in failed or not qmgr:
            return known.get(key)
        try:
            found = admins(qmgr).subscriptions(sub_id=sub_id, subtype=mqc.MQSUBTYPE_ALL)
        except (TransportError, AdminError, CommandFailed, PymqiMissing) as e:
            failed.add(qmgr)
            problem(f"cannot ask {qmgr} where its subscriptions send publications: {e}")
            return None
        d = found[0] if found else None
        known[key] = Location(d.attrs.get("DESTQMGR") or qmgr, d.attrs.get("DEST") or None) \
            if d is not None else None
        return known[key]

    return lookup
