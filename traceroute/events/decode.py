"""PCF event messages (MQCFH Type MQCFT_EVENT) -> typed Events; change events paired."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pcf
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.events.model import EVENT_QUEUES, ChangePair, Event, EventSource, time_from_md


class NotEventData(ValueError):
    """The message is valid PCF but not an event (another MQCFH Type)."""


def event_from_message(message: pcf.Message, md: MQMD | None = None, *,
                       queue: str | None = None, qmgr: str | None = None,
                       where: str = "") -> Event:
    """The Event a decoded PCF message holds; NotEventData when it is no event.

    `queue`/`qmgr` name where it was read (a dump's header); otherwise the event queue of
    its type and the MQMD's ReplyToQMgr (where MQ puts the generating queue manager) [mq].
    """
    h = message.header
    if h.type != mqc.MQCFT_EVENT:
        raise NotEventData(f"MQCFH Type {h.type} is not MQCFT_EVENT (7)")
    source_qmgr = qmgr or (md.reply_to_q_mgr if md is not None else "") or ""
    event = Event(
        source=EventSource(queue or EVENT_QUEUES.get(h.command, ""), "Queue", source_qmgr),
        type=h.command, reason=h.reason, data=list(message.parameters),
        msg_seq_number=h.msg_seq_number, control=h.control, comp_code=h.comp_code,
        where=where)
    if md is not None:
        event.time = time_from_md(md.put_date, md.put_time)
        if any(md.correl_id):
            event.correl_id = bytes(md.correl_id)
    if not event.source.queue_mgr and event.qmgr:
        event.source = EventSource(event.source.object_name, "Queue", event.qmgr)
    return event


def decode_event(data: bytes, md: MQMD | None = None, **where: str) -> Event:
    """Decode message data (after the MQMD) into an Event; PCFError / NotEventData."""
    message = pcf.decode(data, encoding=md.encoding if md else None,
                         ccsid=md.coded_char_set_id if md else None,
                         fmt=md.format if md else None)
    event = event_from_message(message, md, **where)
    event.length = len(data)
    return event


def pair_changes(events: Iterable[Event]) -> Iterator[ChangePair]:
    """Change-object events as before/after pairs by CorrelId (a lone half stays alone)."""
    open_pairs: dict[bytes, ChangePair] = {}
    order: list[ChangePair] = []
    for e in events:
        if e.reason != mqc.MQRC_CONFIG_CHANGE_OBJECT:
            continue
        key = e.correl_id or id(e).to_bytes(8, "little")
        pair = open_pairs.get(key)
        if pair is None:
            pair = ChangePair(None, None)
            open_pairs[key] = pair
            order.append(pair)
        if e.object_state == "Before Change":
            pair.before = e
        else:
            pair.after = e
    yield from order
