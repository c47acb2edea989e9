"""Events explain routes and journeys: joined by queue manager, object and time.

A message waiting on a transmission queue, or one that expired there, sits next to the
channel-stopped events of its channel (or of the channel serving that transmission queue);
a put that failed, or a message dead-lettered, next to THE Queue Full / Put Inhibited /
Unknown Object event of its reason for the queue nearest its time; a message left on its
queue next to Queue Service Interval High (nobody got it in time) or Queue Depth High
events. Only events of the same queue manager count, and, when a time is known, only those
up to `window` before it (and a little after: clocks differ).
Pure functions over values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pcf import mqc
from traceroute.events.model import Event
from traceroute.events.qmgr import MQI_EVENT_REASONS
from traceroute.journeys import Journey, JourneyVerdict
from traceroute.routes import Route, Verdict

CHANNEL_DOWN = frozenset({mqc.MQRC_CHANNEL_STOPPED, mqc.MQRC_CHANNEL_STOPPED_BY_USER,
                          mqc.MQRC_CHANNEL_NOT_ACTIVATED, mqc.MQRC_CHANNEL_CONV_ERROR,
                          mqc.MQRC_CHANNEL_SSL_ERROR, mqc.MQRC_CHANNEL_BLOCKED})
CHANNEL_UP = frozenset({mqc.MQRC_CHANNEL_STARTED, mqc.MQRC_CHANNEL_ACTIVATED})
#: Events that say why a put failed: Queue Full, and every queue manager event of an MQI
#: call (local, remote, inhibit, authority: traceroute.events.qmgr).
PUT_REFUSED = frozenset({mqc.MQRC_Q_FULL, *MQI_EVENT_REASONS})
NOT_SERVED = frozenset({mqc.MQRC_Q_SERVICE_INTERVAL_HIGH, mqc.MQRC_Q_DEPTH_HIGH,
                        mqc.MQRC_Q_FULL, mqc.MQRC_GET_INHIBITED})

#: Events about the queue itself that explain each kind of stop.
_SERVED_AT = {"on_queue": NOT_SERVED,
              "xmitq": frozenset({mqc.MQRC_Q_FULL, mqc.MQRC_Q_DEPTH_HIGH})}

_WHY = {
    "channel": "channel {channel} stopped ({reason}) on {qmgr}: messages wait on its "
               "transmission queue",
    "expired": "channel {channel} stopped ({reason}) on {qmgr}: the message expired waiting "
               "on its transmission queue",
    "refused": "{reason} for {queue} on {qmgr}: puts to it fail",
    "served": "{reason} for {queue} on {qmgr}: its consumer is slow or stopped",
}


@dataclass(frozen=True, slots=True)
class Explanation:
    """An event that explains where a message stopped, and why in words."""

    kind: str          # "channel", "refused", "served"
    event: Event
    text: str


@dataclass(frozen=True, slots=True)
class Place:
    """Where a message stopped, what kind of stop it is, and when it was last seen."""

    qmgr: str
    queue: str | None
    channel: str | None
    stop: str          # "xmitq", "expired", "refused", "on_queue", "" (nothing to explain)
    time: datetime | None = None
    reason: int | None = None  # a put that failed: its MQRC_* (only its events explain it)


def _text(kind: str, event: Event, channel: str | None, queue: str | None) -> str:
    from traceroute.events.spelling import reason_name

    return _WHY[kind].format(channel=event.get(mqc.MQCACH_CHANNEL_NAME) or channel or "?",
                             reason=reason_name(event.reason) + _why(event), qmgr=event.qmgr,
                             queue=event.object_name or queue or "?")


def _why(event: Event) -> str:
    """What the event adds to its reason: a Channel Stopped's qualifier and AMQ message, a
    Not Authorized's user, the transmission queue or base queue a failure is about."""
    from traceroute.events.spelling import spell_value

    parts = []
    qualifier = event.get(mqc.MQIACF_REASON_QUALIFIER)
    if isinstance(qualifier, int) and event.reason in (mqc.MQRC_CHANNEL_STOPPED,
                                                       mqc.MQRC_CHANNEL_SSL_ERROR,
                                                       mqc.MQRC_CHANNEL_BLOCKED):
        parts.append(str(spell_value(mqc.MQIACF_REASON_QUALIFIER, qualifier)).lower())
    error = event.get(mqc.MQIACF_ERROR_IDENTIFIER)
    if isinstance(error, int) and error:
        digits = f"{error & 0xFFFF:04X}"
        severity = {1: "I", 2: "E", 3: "W"}.get((error >> 28) & 0xF, "")
        if digits.isdigit():
            parts.append(f"AMQ{digits}{severity}")
    user = event.get(mqc.MQCACF_USER_IDENTIFIER)
    if event.reason == mqc.MQRC_NOT_AUTHORIZED and isinstance(user, str) and user.strip():
        parts.append(f"user {user.strip()}")
    for pid, what in ((mqc.MQCA_XMIT_Q_NAME, "transmission queue"),
                      (mqc.MQCA_BASE_OBJECT_NAME, "base queue")):
        value = event.get(pid)
        if isinstance(value, str) and value.strip() and event.get(mqc.MQCA_Q_NAME):
            parts.append(f"{what} {value.strip()}")
    return f": {', '.join(parts)}" if parts else ""


def _parse(stamp: str) -> datetime | None:
    """'YYYY-MM-DD HH:MM:SS' (an operation's date and time, taken as UTC) -> datetime."""
    try:
        return datetime.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _key(time: datetime | None) -> datetime:
    return _aware(time) if time else datetime.min.replace(tzinfo=UTC)


def _in_time(time: datetime | None, at: datetime | None, window: timedelta,
             slack: timedelta) -> bool:
    if at is None or time is None:
        return True
    gap = _aware(time) - _aware(at)   # a difference never leaves what a timedelta holds
    return -window <= gap <= slack


def _nearness(time: datetime | None, at: datetime | None, index: int) -> tuple:
    """Order of an event for a put at `at`: nearest in time first; at equal distance the
    one not after the put; at the same time the later written (higher `index`). Without
    a time to measure from: the latest event. An event without a time comes last."""
    if time is None:
        return (2, 0.0, False, -index)
    if at is None:
        return (1, -_aware(time).timestamp(), False, -index)
    gap = (_aware(time) - _aware(at)).total_seconds()
    return (0, abs(gap), gap > 0, -index)


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What the rule reads of an event: where, which reason, the objects it names, when.
    Made from an Event (`facts_of`) or from an events/ table row."""

    qmgr: str
    reason: int
    object_name: str | None = None
    channel: str | None = None
    xmitq: str | None = None
    time: datetime | None = None


def facts_of(event: Event) -> EventFacts:
    """The facts of an Event."""
    channel = event.get(mqc.MQCACH_CHANNEL_NAME)
    xmitq = event.get(mqc.MQCACH_XMIT_Q_NAME) or event.get(mqc.MQCA_XMIT_Q_NAME)
    time = event.time.replace(microsecond=0) if event.time else None  # as the table has it
    return EventFacts(event.qmgr, event.reason, event.object_name or None,
                      channel if isinstance(channel, str) and channel else None,
                      xmitq if isinstance(xmitq, str) and xmitq else None, time)


def explain_facts(place: Place, events: Sequence[EventFacts], *,
                  window: timedelta = timedelta(hours=1),
                  slack: timedelta = timedelta(minutes=5),
                  xmitqs: Mapping[str, str] | None = None) -> list[tuple[str, int]]:
    """THE rule: (kind, index into `events`) of the events that explain a message stopped
    at `place`, most recent first. `show --events`, `follow --events`, analyze's
    route_events/ table (Spark and in one process) all answer with it.

    A message on a transmission queue (waiting, or expired there) is explained by its
    channel's last word before it (however old): Channel Stopped / Not Activated / errors,
    unless a later Channel Started followed (an expired message: the last stop, whatever
    came after); the channel is the one it was last seen on, or the one serving its
    transmission queue (`xmitqs`, channel -> transmission queue from the MQSC, and what the
    events that name both say). Other events count on the same queue manager within
    `window` before the message was last seen (and `slack` after): its queue not served
    (left on its queue), its transmission queue full or deep; and a put refused for its
    queue (put failed, dead-lettered) by THE one event of the put's reason nearest its time
    (at equal distance the one not after it; at the same second the later written), so
    that puts failing seconds apart each meet their own event. A dead letter, whose reason
    the route does not carry, takes the nearest event of each refusal reason.
    """
    if not place.stop:
        return []
    xmitq_of = dict(xmitqs or {})
    mine = [i for i, e in enumerate(events) if e.qmgr == place.qmgr]
    for i in mine:
        e = events[i]
        if e.channel and e.xmitq:
            xmitq_of.setdefault(e.channel, e.xmitq)
    found: list[tuple[str, int]] = []
    latest_channel: dict[str, int] = {}
    nearest: dict[int, int] = {}   # a refused put: reason -> its one event
    for i in mine:
        e = events[i]
        if place.stop in ("xmitq", "expired") and e.reason in CHANNEL_DOWN | CHANNEL_UP:
            # a channel's state lasts: its last word before the message counts, however old;
            # a message that expired was found so when the channel came back: its last stop
            if place.stop == "expired" and e.reason in CHANNEL_UP:
                continue
            if not _in_time(e.time, place.time, timedelta(days=3650), slack):
                continue
            xmitq = e.xmitq or xmitq_of.get(str(e.channel))
            if (e.channel and e.channel == place.channel) or (place.queue
                                                              and xmitq == place.queue):
                key = str(e.channel)
                old = latest_channel.get(key)
                if old is None or _key(e.time) >= _key(events[old].time):
                    latest_channel[key] = i
        elif not _in_time(e.time, place.time, window, slack):
            continue
        elif place.stop == "refused" and e.reason in PUT_REFUSED:
            if e.object_name == place.queue and place.reason in (None, 0, e.reason):
                old = nearest.get(e.reason)
                if old is None or _nearness(e.time, place.time, i) < _nearness(
                        events[old].time, place.time, old):
                    nearest[e.reason] = i
        elif e.object_name == place.queue and e.reason in _SERVED_AT.get(place.stop, ()):
            found.append(("served", i))
    found += [("refused", i) for i in nearest.values()]
    for i in latest_channel.values():  # the channel's last word: stopped (not restarted)
        if events[i].reason in CHANNEL_DOWN:
            found.append(("channel", i))
    found.sort(key=lambda x: _key(events[x[1]].time), reverse=True)
    return found


def explain_place(place: Place, events: Iterable[Event], *,
                  window: timedelta = timedelta(hours=1),
                  slack: timedelta = timedelta(minutes=5),
                  xmitqs: Mapping[str, str] | None = None) -> list[Explanation]:
    """The events that explain a message stopped at `place` (most recent first): the rule
    of `explain_facts`, with each event's explanation in words."""
    events = [e for e in events if e.qmgr == place.qmgr]
    found = explain_facts(place, [facts_of(e) for e in events], window=window, slack=slack,
                          xmitqs=xmitqs)
    out = []
    for kind, i in found:
        e = events[i]
        words = ("expired" if place.stop == "expired" else "channel") \
            if kind == "channel" else kind
        out.append(Explanation(kind, e, _text(words, e, place.channel, place.queue)))
    return out


def place_of_route(route: Route) -> Place:
    """Where a route's message stopped, as `explain_place` needs it."""
    loc = route.location
    qmgr = loc.queue_manager or ""
    time = _parse(last_time(route) or "")
    stop = {Verdict.WAITING_ON_XMITQ: "xmitq", Verdict.EXPIRED: "expired",
            Verdict.DEAD_LETTERED: "refused", Verdict.DELIVERED: "on_queue"
            }.get(route.verdict, "")
    return Place(qmgr, loc.queue, loc.channel, stop, time)


def last_time(route: Route) -> str | None:
    """The latest operation time of a route and its branches, as written (the routes
    table's last_time)."""
    stamps = [op.timestamp for a in route.activities for op in a.operations if op.timestamp]
    return max(stamps) if stamps else None


def place_of_route_row(row: Mapping[str, object]) -> Place:
    """`place_of_route` of a routes/ table row (verdict, last_* columns)."""
    stop = {Verdict.WAITING_ON_XMITQ.value: "xmitq", Verdict.EXPIRED.value: "expired",
            Verdict.DEAD_LETTERED.value: "refused", Verdict.DELIVERED.value: "on_queue"
            }.get(str(row.get("verdict")), "")
    return Place(str(row.get("last_queue_manager") or ""), _opt(row.get("last_queue")),
                 _opt(row.get("last_channel")), stop, _parse(str(row.get("last_time") or "")))


def _opt(value: object) -> str | None:
    return str(value) if value else None


def place_of_journey(journey: Journey) -> Place:
    """Where a journey's message stopped."""
    loc = journey.last_location
    times = journey.times
    stop = {JourneyVerdict.ON_XMITQ: "xmitq", JourneyVerdict.IN_TRANSIT: "xmitq",
            JourneyVerdict.PUT_FAILED: "refused", JourneyVerdict.DEAD_LETTERED: "refused",
            JourneyVerdict.ON_QUEUE: "on_queue"}.get(journey.verdict, "")
    reason = None
    if journey.verdict == JourneyVerdict.PUT_FAILED and journey.steps:
        reason = journey.steps[-1].call.reason or None  # its event has that reason
    return Place(loc.queue_manager or "", loc.queue, loc.channel, stop,
                 times[-1] if times else None, reason)


def explain_routes(routes: Sequence[Route], events: Sequence[Event], **kw: timedelta
                   ) -> list[tuple[Route, list[Explanation]]]:
    """Each route with the events that explain where it stopped."""
    return [(r, explain_place(place_of_route(r), events, **kw)) for r in routes]


def explain_journeys(journeys: Sequence[Journey], events: Sequence[Event], **kw: timedelta
                     ) -> list[tuple[Journey, list[Explanation]]]:
    """Each journey with the events that explain where it stopped."""
    return [(j, explain_place(place_of_journey(j), events, **kw)) for j in journeys]
