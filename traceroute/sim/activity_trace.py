"""Application activity trace written by the simulated queue managers (activity-trace.md).

`ActivityTracer(sim, mqat={...})` watches a Simulator's MQI calls (its observer API) and
writes activity-trace messages exactly where and when a queue manager would:

* which connections are traced: `ALTER QMGR ACTVTRC(ON|OFF)` at connect time, overridden
  by the connection's MQCNO_ACTIVITY_TRACE_ENABLED/_DISABLED options when
  `ACTVCONO(ENABLED)` (`sim.connection(..., options=...)`), overridden by a matching
  `mqat.ini` `ApplicationTrace` stanza (Trace=ON|OFF, ApplName with a trailing `*`, ApplClass
  USER/MCA/ALL, the most specific name wins, then the last) — spec §2 precedence;
* what each record holds: the parameters of §5 up to the TraceLevel (LOW/MEDIUM/HIGH;
  HIGH adds MQMD/MQPMO/MQGMO structure dumps), message data up to TraceMessageData;
* when a message is written: ActivityCount records, or the first call after
  ActivityInterval seconds (no timer), and at MQDISC; SeqNumber counts per connection;
* where: SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE of the queue manager, MQMD Format MQADMIN and
  CorrelId = ConnectionId, in the queue manager's byte order (big-endian with an EBCDIC
  CCSID, or `encoding={qmgr: MQENC_*}`); also kept in `written` in order.

StopOnGetTraceMsg=ON (default) leaves gets from the trace queue itself untraced.

Subscriptions (spec §2.3): a subscription of the queue manager to
`$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/{ApplName,ChannelName,ConnectionId}/<id>`
(`resource_topics`; wildcards and the character scheme as MQ matches them) switches tracing
on for the connections it selects, whenever it is made, and each trace message of such a
connection is published to it (`Simulator.system_publish`: a copy each, the subscription's
CorrelId) besides, or instead of, the trace queue. A connection whose trace is disabled
explicitly (an mqat.ini ApplicationTrace stanza with Trace=OFF, or MQCNO_ACTIVITY_TRACE_
DISABLED under ACTVCONO(ENABLED)) publishes nothing; ACTVTRC(OFF), the default, only keeps
the trace queue empty. The settings are mqat.ini's AllActivityTrace.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from pcf import mqc
from pcf.fastencode import encode_fast as encode
from pcf.model import ByteString, Group, Header, Integer, Integer64, Message, Parameter, String
from pcf.mqmd import MQMD
from traceroute.sim.mqi import (
    MQCLOSE,
    MQCONN,
    MQDISC,
    MQGET,
    MQOPEN,
    MQPUT,
    MQPUT1,
    MQSUB,
    SimCall,
    SimConnection,
)
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator, moment_strings

TRACE_QUEUE = "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE"
LOW, MEDIUM, HIGH = 1, 2, 3
_LEVELS = {"LOW": LOW, "MEDIUM": MEDIUM, "HIGH": HIGH}
_VERBS = {MQCONN: mqc.MQXF_CONN, MQDISC: mqc.MQXF_DISC, MQOPEN: mqc.MQXF_OPEN,
          MQCLOSE: mqc.MQXF_CLOSE, MQPUT: mqc.MQXF_PUT, MQPUT1: mqc.MQXF_PUT1,
          MQGET: mqc.MQXF_GET, MQSUB: mqc.MQXF_SUB}
_CCSID = 819


# --- mqat.ini -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TraceSettings:
    """What the AllActivityTrace stanza (or a rule's override) sets."""

    interval: int = 1
    count: int = 100
    level: int = MEDIUM
    message_data: int = 0
    stop_on_get: bool = True


@dataclass(frozen=True, slots=True)
class ApplicationRule:
    """One ApplicationTrace stanza."""

    appl_name: str
    trace: bool
    appl_class: str = "USER"
    appl_function: str = "*"
    overrides: dict[str, object] = field(default_factory=dict)

    def matches(self, conn: SimConnection) -> int | None:
        """How many characters of the name matched (None: no match); spec §2.1 rules 2-3."""
        kind = "MCA" if conn.mca else "USER"
        if self.appl_class not in ("ALL", kind):
            return None
        name = conn.appl_name.replace("\\", "/").rsplit("/", 1)[-1]
        if self.appl_name.endswith("*"):
            prefix = self.appl_name[:-1]
            return len(prefix) if name.startswith(prefix) else None
        return len(name) if name == self.appl_name else None


@dataclass(frozen=True, slots=True)
class MqatIni:
    """An mqat.ini: the AllActivityTrace settings and the ApplicationTrace rules in order."""

    all: TraceSettings = TraceSettings()
    rules: tuple[ApplicationRule, ...] = ()

    def settings_for(self, conn: SimConnection, actvtrc: bool) -> TraceSettings | None:
        """The settings of a new connection, or None when it is not traced (§2.1 rules)."""
        best: tuple[int, int] | None = None
        chosen: ApplicationRule | None = None
        for n, rule in enumerate(self.rules):
            matched = rule.matches(conn)
            if matched is not None and (best is None or (matched, n) >= best):
                best, chosen = (matched, n), rule
        if chosen is None:
            return self.all if actvtrc else None
        if not chosen.trace:
            return None
        return replace(self.all, **chosen.overrides)  # type: ignore[arg-type]


_KEYS = {"activityinterval": ("interval", int), "activitycount": ("count", int),
         "tracelevel": ("level", lambda v: _LEVELS[v.upper()]),
         "tracemessagedata": ("message_data", int),
         "stopongettracemsg": ("stop_on_get", lambda v: v.upper() == "ON"),
         "stopontracemsg": ("stop_on_get", lambda v: v.upper() == "ON")}


class MqatError(ValueError):
    """A line of an mqat.ini that cannot be read (its line number in the message)."""


def parse_mqat_ini(text: str, *, source: str = "mqat.ini") -> MqatIni:
    """Read mqat.ini text: stanzas `Name:`, `key=value` lines, `#`/`;` comments (§2.1)."""
    all_values: dict[str, object] = {}
    rules: list[ApplicationRule] = []
    stanza: str | None = None
    current: dict[str, str] = {}
    lines: list[int] = []

    def close() -> None:
        if stanza == "applicationtrace":
            keys = {k.lower(): v for k, v in current.items()}
            if "trace" not in keys or "applname" not in keys:
                raise MqatError(f"{source}:{lines[0]}: ApplicationTrace needs Trace and "
                                "ApplName")
            overrides = {_KEYS[k][0]: _KEYS[k][1](v) for k, v in keys.items() if k in _KEYS}
            rules.append(ApplicationRule(keys["applname"], keys["trace"].upper() == "ON",
                                         keys.get("applclass", "USER").upper(),
                                         keys.get("applfunction", "*"), overrides))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].split(";", 1)[0].strip()
        if not line:
            continue
        if line.endswith(":") and "=" not in line:
            close()
            stanza, current, lines = line[:-1].strip().lower(), {}, [number]
            if stanza == "allactivitytrace":
                all_values.clear()  # the last AllActivityTrace wins, missing keys default
            continue
        if stanza is None or "=" not in line:
            raise MqatError(f"{source}:{number}: expected a stanza key or name=value: {raw!r}")
        key, value = (x.strip() for x in line.split("=", 1))
        try:
            if stanza == "allactivitytrace" and key.lower() in _KEYS:
                attr, conv = _KEYS[key.lower()]
                all_values[attr] = conv(value)
            elif stanza == "applicationtrace":
                if key.lower() in _KEYS:
                    _KEYS[key.lower()][1](value)  # checked now, applied at the stanza's end
                current[key] = value
        except (KeyError, ValueError) as e:
            raise MqatError(f"{source}:{number}: bad value for {key}: {value!r}") from e
    close()
    return MqatIni(TraceSettings(**all_values), tuple(rules))  # type: ignore[arg-type]


# --- the tracer --------------------------------------------------------------------------------

@dataclass
class _Conn:
    """One traced connection: its settings, SeqNumber, and the records not yet written."""

    conn: SimConnection
    settings: TraceSettings
    seq: int = 0
    records: list[Group] = field(default_factory=list)
    start: float = 0.0
    queue: bool = True  # written to the trace queue (else only published to subscriptions)


class ActivityTracer:
    """Writes the activity-trace messages of a simulated network (see the module doc)."""

    def __init__(self, sim: Simulator, *, mqat: dict[str, MqatIni | str] | None = None,
                 encoding: dict[str, int] | None = None) -> None:
        self.sim = sim
        self.mqat = {q: parse_mqat_ini(v, source=f"{q}/mqat.ini") if isinstance(v, str) else v
                     for q, v in (mqat or {}).items()}
        self.encoding = dict(encoding or {})
        self.written: list[tuple[str, MQMD, bytes]] = []
        #: trace messages published to $SYS subscriptions: (qmgr, md, data, copies put)
        self.published: list[tuple[str, MQMD, bytes, int]] = []
        self._conns: dict[bytes, _Conn] = {}
        self._disabled: set[bytes] = set()  # connections whose trace is explicitly off
        self._stamps: dict[tuple[str, float], tuple[str, str, int]] = {}
        sim.add_observer(self.observe)

    def close(self) -> None:
        """Stop watching the simulator (connections still open write nothing more)."""
        self.sim.remove_observer(self.observe)

    def messages(self, qmgr: str | None = None) -> list[tuple[MQMD, bytes]]:
        """The trace messages written (by one queue manager), oldest first."""
        return [(md, data) for q, md, data in self.written if qmgr is None or q == qmgr]

    # --- watching ----------------------------------------------------------------------

    def observe(self, call: SimCall) -> None:
        """The observer: decide tracing at MQCONN, collect, write by count/interval/MQDISC."""
        key = call.conn.conn_id
        state = self._conns.get(key)
        if call.verb == MQCONN:
            if call.comp_code == mqc.MQCC_FAILED:
                return  # no connection: nothing to trace
            qm = self.sim.network.qmgrs.get(call.qmgr)
            attrs = qm.attrs if qm is not None else {}
            actvtrc = attrs.get("ACTVTRC", "OFF").upper() == "ON"
            disabled = False
            if attrs.get("ACTVCONO", "DISABLED").upper() == "ENABLED":  # MQCNO may override
                if call.conn.options & mqc.MQCNO_ACTIVITY_TRACE_ENABLED:
                    actvtrc = True
                elif call.conn.options & mqc.MQCNO_ACTIVITY_TRACE_DISABLED:
                    actvtrc, disabled = False, True
            ini = self.mqat.get(call.qmgr, MqatIni())
            settings = ini.settings_for(call.conn, actvtrc)
            if settings is not None:
                state = self._conns[key] = _Conn(call.conn, settings, start=call.time)
            elif disabled or ini.settings_for(call.conn, True) is None:
                self._disabled.add(key)  # no subscription switches it on
                return
        if state is None:
            if key in self._disabled:
                if call.verb == MQDISC:
                    self._disabled.discard(key)
                return
            if call.verb == MQDISC or not self._subscribers(call.conn):
                return  # (a connection's end alone makes no trace message)
            ini = self.mqat.get(call.qmgr, MqatIni())  # a subscription switched it on
            state = self._conns[key] = _Conn(call.conn, ini.all, start=call.time, queue=False)
        s = state.settings
        if call.verb == MQGET and s.stop_on_get and call.local_queue == TRACE_QUEUE:
            return
        if s.interval and state.records and call.time - state.start >= s.interval:
            self._write(state, call.time)
        state.records.append(self.record(call, s))
        if call.verb == MQDISC:
            self._write(state, call.time)
            del self._conns[key]
        elif s.count and len(state.records) >= s.count:
            self._write(state, call.time)

    def _subscribers(self, conn: SimConnection) -> bool:
        """True when a subscription of the queue manager selects this connection's trace."""
        if not self.sim.pubsub.system(self.sim.network, conn.qmgr):
            return False
        return bool(self.sim.system_subscribers(conn.qmgr, resource_topics(conn)))

    # --- by the clock, and between runs (an estate folder) ---------------------------------

    def tick(self, now: float | None = None) -> None:
        """Write the records of every traced connection whose ActivityInterval has passed
        (by the clock: a channel agent or an application waiting in MQGET is still there)."""
        now = self.sim.now if now is None else now
        for state in list(self._conns.values()):
            s = state.settings
            if s.interval and state.records and now - state.start >= s.interval:
                self._write(state, now)

    def export_state(self, qmgr: str) -> list[dict]:
        """The traced connections of a queue manager and their records not yet written
        (JSON-ready; the records as one PCF message, hex)."""
        from traceroute.sim.state import to_json

        out = []
        for state in self._conns.values():
            if state.conn.qmgr != qmgr:
                continue
            records = encode(Message(Header(mqc.MQCFT_APP_ACTIVITY, mqc.MQCMD_ACTIVITY_TRACE),
                                     list(state.records)), encoding=mqc.MQENC_NATIVE, ccsid=_CCSID)
            out.append({"conn": to_json(state.conn), "settings": to_json(state.settings),
                        "seq": state.seq, "start": state.start, "queue": state.queue,
                        "records": {"hex": records.hex()}})
        return out

    def import_state(self, qmgr: str, items: list, *, where: str = "activity") -> None:
        """Go on tracing the connections of `export_state` (StateError when they do not fit)."""
        from pcf.decoder import decode
        from pcf.errors import PCFError
        from traceroute.sim.state import StateError, from_json

        live = {c.conn_id: c for c in self.sim.connections()}
        for n, item in enumerate(items):
            here = f"{where}[{n}]"
            if not isinstance(item, dict):
                raise StateError(f"{here}: not a JSON object")
            conn = from_json(SimConnection, item.get("conn"), f"{here}.conn")
            settings = from_json(TraceSettings, item.get("settings"), f"{here}.settings")
            data = from_json(bytes, item.get("records"), f"{here}.records")
            try:
                records = decode(data, encoding=mqc.MQENC_NATIVE, ccsid=_CCSID).parameters
            except PCFError as e:
                raise StateError(f"{here}.records: {e}") from None
            conn = live.get(conn.conn_id, conn)
            self._conns[conn.conn_id] = _Conn(
                conn, settings, from_json(int, item.get("seq", 0), f"{here}.seq"),
                [g for g in records if isinstance(g, Group)],
                from_json(float, item.get("start", 0.0), f"{here}.start"),
                from_json(bool, item.get("queue", True), f"{here}.queue"))

    # --- one record (spec §5) ------------------------------------------------------------

    def _clock(self, qmgr: str, t: float) -> datetime:
        return self.sim.start + timedelta(seconds=t + self.sim.clock_skew.get(qmgr, 0.0))

    def _stamp(self, qmgr: str, t: float) -> tuple[str, str, int]:
        """A moment's date and time as a record shows them, and its microseconds."""
        key = (qmgr, t)
        stamp = self._stamps.get(key)
        if stamp is None:
            if len(self._stamps) > 4096:
                self._stamps.clear()
            when = self._clock(qmgr, t)
            micros = int(when.replace(tzinfo=UTC).timestamp() * 1_000_000)
            stamp = self._stamps[key] = (*moment_strings(when)[:2], micros)
        return stamp

    def record(self, call: SimCall, s: TraceSettings) -> Group:
        """The MQGACF_ACTIVITY_TRACE group of one call, up to the trace level."""
        date, clock, micros = self._stamp(call.qmgr, call.time)
        p: list[Parameter] = [
            Integer(mqc.MQIACF_OPERATION_ID, _VERBS[call.verb]),
            Integer(mqc.MQIACF_THREAD_ID, 1),
            _s(mqc.MQCACF_OPERATION_DATE, date, 12),
            _s(mqc.MQCACF_OPERATION_TIME, clock, 8)]
        medium, high = s.level >= MEDIUM, s.level >= HIGH
        v = call.verb
        if v == MQCONN:
            p += [ByteString(mqc.MQBACF_CONNECTION_ID, call.conn.conn_id),
                  _s(mqc.MQCA_Q_MGR_NAME, call.qmgr)]
        if v in (MQOPEN, MQPUT1):
            p += [Integer(mqc.MQIACF_OBJECT_TYPE, self._object_type(call)),
                  _s(mqc.MQCACF_OBJECT_NAME, call.object_name),
                  _s(mqc.MQCACF_OBJECT_Q_MGR_NAME, call.object_qmgr)]
        if v in (MQOPEN, MQPUT, MQGET, MQCLOSE) and call.hobj is not None:
            p.append(Integer(mqc.MQIACF_HOBJ, call.hobj))
        p += [Integer(mqc.MQIACF_COMP_CODE, call.comp_code),
              Integer(mqc.MQIACF_REASON_CODE, call.reason)]
        if v == MQSUB:  # MQSUB: its handle, options and topic (activity-trace.md §5.5)
            p += [Integer(mqc.MQIACF_HSUB, call.hobj or 0),
                  Integer(mqc.MQIACF_SUB_OPTIONS, call.options),
                  _s(mqc.MQCACF_OBJECT_NAME, call.object_name),
                  _s(mqc.MQCACF_OBJECT_STRING, call.topic, 0)]
        if v == MQOPEN:
            p.append(Integer(mqc.MQIACF_OPEN_OPTIONS, call.options))
        elif v == MQCLOSE:
            p.append(Integer(mqc.MQIACF_CLOSE_OPTIONS, 0))
        elif v in (MQPUT, MQPUT1):
            p.append(Integer(mqc.MQIACF_PUT_OPTIONS, call.options))
        elif v == MQGET:
            p.append(Integer(mqc.MQIACF_GET_OPTIONS, call.options))
        if v in (MQPUT, MQPUT1, MQGET):
            p.append(Integer(mqc.MQIACF_MSG_LENGTH, call.data_length))
            if s.message_data and call.data:
                p.append(ByteString(mqc.MQBACF_MESSAGE_DATA, call.data[:s.message_data]))
        if medium and v != MQDISC:
            p.extend(self._medium(call, micros))
        if high and call.md is not None and v in (MQPUT, MQPUT1, MQGET):
            p.append(ByteString(mqc.MQBACF_MQMD_STRUCT, call.md.pack(
                encoding=mqc.MQENC_NATIVE)))
            if v == MQGET:
                p.append(ByteString(mqc.MQBACF_MQGMO_STRUCT, _gmo(call)))
            else:
                p.append(ByteString(mqc.MQBACF_MQPMO_STRUCT, _pmo(call)))
        return Group(mqc.MQGACF_ACTIVITY_TRACE, p)

    def _object_type(self, call: SimCall) -> int:
        """MQOT_TOPIC for a topic opened as one; an alias queue of a topic is MQOT_Q."""
        if not call.topic:
            return mqc.MQOT_Q
        qm = self.sim.network.qmgrs.get(call.qmgr)
        named = qm.queues.get(call.object_name) if qm is not None and call.object_name \
            else None
        return mqc.MQOT_Q if named is not None else mqc.MQOT_TOPIC

    def _medium(self, call: SimCall, micros: int) -> list[Parameter]:
        v = call.verb
        p: list[Parameter] = []
        if call.topic and v in (MQOPEN, MQPUT, MQPUT1, MQSUB):
            p.extend(_topic_parameters(call))
        if v in (MQPUT, MQPUT1, MQGET):
            p.append(Integer64(mqc.MQIAMO64_HIGHRES_TIME, micros))
            if v != MQPUT1:
                p.append(_s(mqc.MQCACF_OBJECT_NAME, call.object_name))
        if v in (MQOPEN, MQPUT, MQPUT1, MQGET) and call.comp_code != mqc.MQCC_FAILED and \
                call.resolved_queue:
            p.append(_s(mqc.MQCACF_RESOLVED_Q_NAME, call.resolved_queue))
            if v != MQGET:
                p.append(_s(mqc.MQCACF_RESOLVED_Q_MGR, call.resolved_qmgr))
                if call.local_queue and call.local_queue != call.resolved_queue:
                    p += [_s(mqc.MQCACF_RESOLVED_LOCAL_Q_NAME, call.local_queue),
                          _s(mqc.MQCACF_RESOLVED_LOCAL_Q_MGR, call.qmgr)]
        md = call.md
        if md is not None and v in (MQPUT, MQPUT1, MQGET):  # a failed put: the MQMD given
            p += [Integer(mqc.MQIACF_REPORT, md.report), Integer(mqc.MQIACF_MSG_TYPE, md.msg_type),
                  Integer(mqc.MQIACF_EXPIRY, md.expiry),
                  _s(mqc.MQCACH_FORMAT_NAME, md.format, 8),
                  Integer(mqc.MQIACF_PRIORITY, md.priority),
                  Integer(mqc.MQIACF_PERSISTENCE, md.persistence),
                  ByteString(mqc.MQBACF_MSG_ID, md.msg_id),
                  ByteString(mqc.MQBACF_CORREL_ID, md.correl_id),
                  _s(mqc.MQCACF_REPLY_TO_Q, md.reply_to_q),
                  _s(mqc.MQCACF_REPLY_TO_Q_MGR, md.reply_to_q_mgr),
                  Integer(mqc.MQIA_CODED_CHAR_SET_ID, md.coded_char_set_id),
                  Integer(mqc.MQIACF_ENCODING, md.encoding),
                  _s(mqc.MQCACF_PUT_DATE, md.put_date, 8),
                  _s(mqc.MQCACF_PUT_TIME, md.put_time, 8)]
            if call.xmit_msg_id is not None:
                p += [ByteString(mqc.MQBACF_XQH_MSG_ID, call.xmit_msg_id),
                      ByteString(mqc.MQBACF_XQH_CORREL_ID, call.xmit_correl_id or bytes(24)),
                      _s(mqc.MQCACF_XQH_PUT_DATE, md.put_date, 8),
                      _s(mqc.MQCACF_XQH_PUT_TIME, md.put_time, 8),
                      _s(mqc.MQCACF_XQH_REMOTE_Q_NAME, call.xmit_remote_q),
                      _s(mqc.MQCACF_XQH_REMOTE_Q_MGR, call.xmit_remote_qmgr)]
        return p

    # --- one message (spec §3) ------------------------------------------------------------

    def _write(self, state: _Conn, now: float) -> None:
        if not state.records:
            return
        c, s = state.conn, state.settings
        qm = self.sim.network.qmgrs[c.qmgr]
        start, end = self._clock(c.qmgr, state.start), self._clock(c.qmgr, now)
        top: list[Parameter] = [
            _s(mqc.MQCA_Q_MGR_NAME, c.qmgr), _s(mqc.MQCACF_HOST_NAME, c.qmgr.lower(), 0),
            _s(mqc.MQCAMO_START_DATE, start.strftime("%Y-%m-%d"), 12),
            _s(mqc.MQCAMO_START_TIME, start.strftime("%H.%M.%S"), 8),
            _s(mqc.MQCAMO_END_DATE, end.strftime("%Y-%m-%d"), 12),
            _s(mqc.MQCAMO_END_TIME, end.strftime("%H.%M.%S"), 8),
            Integer(mqc.MQIA_COMMAND_LEVEL, 940), Integer(mqc.MQIACF_SEQUENCE_NUMBER, state.seq),
            _s(mqc.MQCACF_APPL_NAME, c.appl_name[-28:], 28),
            Integer(mqc.MQIA_APPL_TYPE, c.appl_type), Integer(mqc.MQIACF_PROCESS_ID, c.pid),
            _s(mqc.MQCACF_USER_IDENTIFIER, "mqm", 12),
            Integer(mqc.MQIACF_API_CALLER_TYPE, mqc.MQXACT_EXTERNAL),
            Integer(mqc.MQIACF_API_ENVIRONMENT, mqc.MQXE_MCA if c.mca else
                    mqc.MQXE_MCA_SVRCONN if c.client else mqc.MQXE_OTHER)]
        if c.mca or c.client:
            address = f"{c.partner.lower()}(1414)" if c.mca else c.partner
            top += [_s(mqc.MQCACH_CHANNEL_NAME, c.channel, 20),
                    _s(mqc.MQCACH_CONNECTION_NAME, address, 264),
                    Integer(mqc.MQIACH_CHANNEL_TYPE, c.channel_type or 0)]
        top += [_s(mqc.MQCACF_APPL_FUNCTION, "", 0),
                Integer(mqc.MQIACF_APPL_FUNCTION_TYPE, mqc.MQFUN_TYPE_UNKNOWN),
                Integer(mqc.MQIACF_TRACE_DETAIL, s.level),
                Integer(mqc.MQIACF_TRACE_DATA_LENGTH, s.message_data),
                Integer(mqc.MQIACF_POINTER_SIZE, 8), Integer(mqc.MQIA_PLATFORM, mqc.MQPL_UNIX)]
        message = Message(Header(mqc.MQCFT_APP_ACTIVITY, mqc.MQCMD_ACTIVITY_TRACE),
                          top + state.records)
        enc, ccsid = self.sim._encoding(qm)
        enc = self.encoding.get(c.qmgr, enc)
        date, time = when_stamp(end)
        md = MQMD(format="MQADMIN", correl_id=c.conn_id, msg_id=self.sim.new_msg_id(c.qmgr),
                  encoding=enc, coded_char_set_id=ccsid, put_appl_type=mqc.MQAT_QMGR,
                  put_appl_name=c.qmgr[:28], put_date=date, put_time=time,
                  persistence=mqc.MQPER_NOT_PERSISTENT)
        data = encode(message, encoding=enc, ccsid=ccsid)
        if state.queue:
            qm.queues.setdefault(TRACE_QUEUE, MQObject("QLOCAL", TRACE_QUEUE, {}))
            self.sim._store(qm, TRACE_QUEUE, md, data)
            self.written.append((c.qmgr, md, data))
        topics = resource_topics(c)
        subscribers = self.sim.system_subscribers(c.qmgr, topics)
        if subscribers:
            published = self.sim.system_publish(c.qmgr, topics[0], subscribers, md, data)
            self.published.append((c.qmgr, md, data, published))
        state.seq += 1
        state.records = []
        state.start = now


def _topic_level(name: str) -> str:
    """A name as a level of a system topic: trailing blanks removed, `/` replaced by `&`."""
    return name.rstrip().replace("/", "&")


def resource_topics(conn: SimConnection) -> list[str]:
    """The `$SYS/MQ/INFO/QMGR/<qmgr>/ActivityTrace/...` topic strings a connection's trace
    is published on: ApplName (the part after the last `/` or `\\`), ChannelName (an MCA's
    or a client's channel), ConnectionId (48 hex digits)."""
    base = f"$SYS/MQ/INFO/QMGR/{_topic_level(conn.qmgr)}/ActivityTrace"
    appl = conn.appl_name.replace("\\", "/").rsplit("/", 1)[-1].rstrip()
    out = [f"{base}/ApplName/{appl}"]
    if conn.channel:
        out.append(f"{base}/ChannelName/{_topic_level(conn.channel)}")
    out.append(f"{base}/ConnectionId/{conn.conn_id.hex().upper()}")
    return out


def _topic_parameters(call: SimCall) -> list[Parameter]:
    """What a call on a topic records at TraceLevel MEDIUM: ObjectString (a put; MQOD
    version 4), the subscription's name, user data, correlation id and selection string (a
    subscription), the queue its publications go to, and ResObjectString with ResolvedType
    MQOT_TOPIC."""
    p: list[Parameter] = []
    sub = call.subscription
    if call.verb == MQSUB:
        if sub is not None:
            p += [_s(mqc.MQCACF_SUB_NAME, sub.name, 0),
                  _s(mqc.MQCACF_SUB_USER_DATA, sub.user_data, 0),
                  ByteString(mqc.MQBACF_SUB_CORREL_ID, sub.correl_id),
                  _s(mqc.MQCACF_SELECTION_STRING, sub.selector, 0)]
        if call.local_queue:
            p.append(_s(mqc.MQCACF_RESOLVED_LOCAL_Q_NAME, call.local_queue))
    elif call.verb != MQPUT:
        p.append(_s(mqc.MQCACF_OBJECT_STRING, call.topic, 0))
    p += [_s(mqc.MQCACF_RESOLVED_OBJECT_STRING, call.topic, 0),
          Integer(mqc.MQIACF_RESOLVED_TYPE, mqc.MQOT_TOPIC)]
    return p


def when_stamp(t: datetime) -> tuple[str, str]:
    """MQMD PutDate/PutTime of a moment: YYYYMMDD, HHMMSSTH."""
    return moment_strings(t)[2:]


def _s(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, _CCSID, width or None)


def _gmo(call: SimCall) -> bytes:
    """An MQGMO version 1 dump: StrucId, Version, Options, WaitInterval, Signal1, Signal2,
    ResolvedQName (native byte order)."""
    return (b"GMO " + struct.pack("<5i", 1, call.options, 0, 0, 0)
            + call.local_queue.ljust(48).encode("latin-1")[:48])


def _pmo(call: SimCall) -> bytes:
    """An MQPMO version 1 dump: StrucId, Version, Options, Timeout, Context, the three
    destination counts, ResolvedQName, ResolvedQMgrName (native byte order)."""
    return (b"PMO " + struct.pack("<7i", 1, call.options, -1, 0, 1, 0, 0)
            + call.resolved_queue.ljust(48).encode("latin-1")[:48]
            + call.resolved_qmgr.ljust(48).encode("latin-1")[:48])
