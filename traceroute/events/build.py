"""Events as real MQ messages: MQMD + PCF (MQCFT_EVENT) built with pcf.encoder's model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pcf
from pcf import mqc
from pcf.fastencode import encode_fast
from pcf.mqmd import MQMD
from traceroute.events.engine import PERFM_EVENT_QUEUE, PerfEvent
from traceroute.events.model import EVENT_QUEUES, Event, EventSource, md_time

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def when(time_ms: int, base: datetime = EPOCH) -> datetime:
    """The datetime of a millisecond offset from `base` (the Unix epoch by default)."""
    return base + timedelta(milliseconds=time_ms)


def _name(pid: int, text: str) -> pcf.String:
    return pcf.String(pid, text, width=48)


def perf_event(ev: PerfEvent, base: datetime = EPOCH) -> Event:
    """The typed Event of a performance event the engine raised."""
    data: list[pcf.Parameter] = [
        _name(mqc.MQCA_Q_MGR_NAME, ev.qmgr), _name(mqc.MQCA_BASE_OBJECT_NAME, ev.queue),
        pcf.Integer(mqc.MQIA_TIME_SINCE_RESET, ev.time_since_reset),
        pcf.Integer(mqc.MQIA_HIGH_Q_DEPTH, ev.high_q_depth),
        pcf.Integer(mqc.MQIA_MSG_ENQ_COUNT, ev.msg_enq_count),
        pcf.Integer(mqc.MQIA_MSG_DEQ_COUNT, ev.msg_deq_count)]
    return Event(EventSource(PERFM_EVENT_QUEUE, "Queue", ev.qmgr), mqc.MQCMD_PERFM_EVENT,
                 ev.reason, when(ev.time_ms, base).replace(microsecond=0), data,
                 correl_id=ev.correl_id)


def event_message(event: Event, *, encoding: int = mqc.MQENC_REVERSED,
                  ccsid: int = 1208) -> tuple[MQMD, bytes]:
    """(MQMD, message data) of an event as the queue manager puts it on its event queue.

    MQMD: Format MQEVENT, MsgType DATAGRAM, ReplyToQMgr the queue manager [mq], PutDate/
    PutTime the event time, CorrelId when the event has one. Data: MQCFH (Type EVENT,
    CompCode WARNING) and the event data: the bytes of pcf.encode (by its faster twin).
    """
    message = pcf.Message(pcf.Header(type=mqc.MQCFT_EVENT, command=event.type,
                                     msg_seq_number=event.msg_seq_number,
                                     control=event.control, comp_code=event.comp_code,
                                     reason=event.reason, version=mqc.MQCFH_VERSION_1),
                          list(event.data), encoding=encoding, ccsid=ccsid)
    date, time = md_time(event.time) if event.time else ("", "")
    md = MQMD(format=mqc.MQFMT_EVENT.strip(), msg_type=mqc.MQMT_DATAGRAM, encoding=encoding,
              coded_char_set_id=ccsid, persistence=mqc.MQPER_NOT_PERSISTENT,
              reply_to_q_mgr=event.source.queue_mgr, correl_id=event.correl_id or bytes(24),
              put_appl_type=mqc.MQAT_QMGR, put_appl_name=event.source.queue_mgr[:28],
              put_date=date, put_time=time)
    return md, encode_fast(message)


def event_queue_of(event: Event) -> str:
    """The system queue an event is put to."""
    return EVENT_QUEUES.get(event.type, event.source.object_name)
