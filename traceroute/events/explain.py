"""Events explain routes and journeys: joined by queue manager, object and time.

A message waiting on a transmission queue, or one that expired there, sits next to the
channel-stopped events of its channel (or of the channel serving that transmission queue);
a put that failed, or a message dead-lettered, next to Queue Full / Put Inhibited / Unknown
Object events for the queue; a message left on its queue next to Queue Service Interval
High (nobody got it in time) or Queue Depth High events. Only events of the same queue
manager count, and, when a time is known, only those up to `window` before it (and a little
after: clocks differ).
Pure functions over values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pcf import mqc
from traceroute.events.model import Event
from traceroute.journeys import Journey, JourneyVerdict
from traceroute.routes import Route, Verdict

CHANNEL_DOWN = frozenset({mqc.MQRC_CHANNEL_STOPPED, mqc.MQRC_CHANNEL_STOPPED_BY_USER,
                          mqc.MQRC_CHANNEL_NOT_ACTIVATED, mqc.MQRC_CHANNEL_CONV_ERROR,
                          mqc.MQRC_CHANNEL_SSL_ERROR})
CHANNEL_UP = frozenset({mqc.MQRC_CHANNEL_STARTED, mqc.MQRC_CHANNEL_ACTIVATED})
PUT_REFUSED = frozenset({mqc.MQRC_Q_FULL, mqc.MQRC_PUT_INHIBITED,
                         mqc.MQRC_UNKNOWN_OBJECT_NAME, mqc.MQRC_UNKNOWN_XMIT_Q,
                         mqc.MQRC_UNKNOWN_REMOTE_Q_MGR, mqc.MQRC_NOT_AUTHORIZED})
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


def _text(kind: str, event: Event, channel: str | None, queue: str | None) -> str:
    from traceroute.events.spelling import reason_name

    return _WHY[kind].format(channel=event.get(mqc.MQCACH_CHANNEL_NAME) or channel or "?",
                             reason=reason_name(event.reason), qmgr=event.qmgr,
                             queue=event.object_name or queue or "?")


def _parse(stamp: str) -> datetime | None:
    """'YYYY-MM-DD HH:MM:SS' (an operation's date and time, taken as UTC) -> datetime."""
    try:
        return datetime.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _key(event: Event) -> datetime:
    return _aware(event.time) if event.time else datetime.min.replace(tzinfo=UTC)


def _in_time(event: Event, at: datetime | None, window: timedelta, slack: timedelta) -> bool:
    if at is None or event.time is None:
        return True
    return _aware(at) - window <= _aware(event.time) <= _aware(at) + slack


def explain_place(place: Place, events: Iterable[Event], *,
                  window: timedelta = timedelta(hours=1),
                  slack: timedelta = timedelta(minutes=5),
                  xmitqs: Mapping[str, str] | None = None) -> list[Explanation]:
    """The events that explain a message stopped at `place` (most recent first).

    `xmitqs` (channel -> transmission queue on that queue manager, from its MQSC) links a
    channel event that does not name its transmission queue; events that do name it
    (Channel Started, Channel Stopped) teach the link too.
    """
    if not place.stop:
        return []
    events = [e for e in events if e.qmgr == place.qmgr]
    xmitq_of = dict(xmitqs or {})
    for e in events:
        channel, xmitq = e.get(mqc.MQCACH_CHANNEL_NAME), e.get(mqc.MQCACH_XMIT_Q_NAME)
        if isinstance(channel, str) and isinstance(xmitq, str) and xmitq:
            xmitq_of.setdefault(channel, xmitq)
    found: list[Explanation] = []
    latest_channel: dict[str, Event] = {}
    for e in events:
        if place.stop in ("xmitq", "expired") and e.reason in CHANNEL_DOWN | CHANNEL_UP:
            # a channel's state lasts: its last word before the message counts, however old;
            # a message that expired was found so when the channel came back: its last stop
            if place.stop == "expired" and e.reason in CHANNEL_UP:
                continue
            if not _in_time(e, place.time, timedelta(days=3650), slack):
                continue
            channel = e.get(mqc.MQCACH_CHANNEL_NAME)
            xmitq = e.get(mqc.MQCACH_XMIT_Q_NAME) or xmitq_of.get(str(channel))
            if channel == place.channel or (place.queue and xmitq == place.queue):
                key = str(channel)
                old = latest_channel.get(key)
                if old is None or _key(e) >= _key(old):
                    latest_channel[key] = e
        elif not _in_time(e, place.time, window, slack):
            continue
        elif place.stop == "refused" and e.reason in PUT_REFUSED:
            if e.object_name == place.queue or e.get(mqc.MQCA_Q_NAME) == place.queue:
                found.append(Explanation("refused", e, _text("refused", e, None, place.queue)))
        elif e.object_name == place.queue and e.reason in _SERVED_AT.get(place.stop, ()):
            found.append(Explanation("served", e, _text("served", e, None, place.queue)))
    why = "expired" if place.stop == "expired" else "channel"
    for e in latest_channel.values():  # the channel's last word: stopped (not restarted)
        if e.reason in CHANNEL_DOWN:
            found.append(Explanation("channel", e, _text(why, e, place.channel, place.queue)))
    found.sort(key=lambda x: _key(x.event), reverse=True)
    return found


def place_of_route(route: Route) -> Place:
    """Where a route's message stopped, as `explain_place` needs it."""
    loc = route.location
    qmgr = loc.queue_manager or ""
    time = None
    for activity in reversed(route.activities):
        op = activity.last
        if op is not None and op.timestamp:
            time = _parse(op.timestamp)
            if time is not None:
                break
    stop = {Verdict.WAITING_ON_XMITQ: "xmitq", Verdict.EXPIRED: "expired",
            Verdict.DEAD_LETTERED: "refused", Verdict.DELIVERED: "on_queue"
            }.get(route.verdict, "")
    return Place(qmgr, loc.queue, loc.channel, stop, time)


def place_of_journey(journey: Journey) -> Place:
    """Where a journey's message stopped."""
    loc = journey.last_location
    times = journey.times
    stop = {JourneyVerdict.ON_XMITQ: "xmitq", JourneyVerdict.IN_TRANSIT: "xmitq",
            JourneyVerdict.PUT_FAILED: "refused", JourneyVerdict.DEAD_LETTERED: "refused",
            JourneyVerdict.ON_QUEUE: "on_queue"}.get(journey.verdict, "")
    return Place(loc.queue_manager or "", loc.queue, loc.channel, stop,
                 times[-1] if times else None)


def explain_routes(routes: Sequence[Route], events: Sequence[Event], **kw: timedelta
                   ) -> list[tuple[Route, list[Explanation]]]:
    """Each route with the events that explain where it stopped."""
    return [(r, explain_place(place_of_route(r), events, **kw)) for r in routes]


def explain_journeys(journeys: Sequence[Journey], events: Sequence[Event], **kw: timedelta
                     ) -> list[tuple[Journey, list[Explanation]]]:
    """Each journey with the events that explain where it stopped."""
    return [(j, explain_place(place_of_journey(j), events, **kw)) for j in journeys]
