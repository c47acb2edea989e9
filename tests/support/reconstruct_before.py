# The walk of traceroute/journeys/reconstruct.py as it was before commit 86e5307 (a used-set of
# call ids, filtered per lookup): the reference tests compare the faster walk against.
"""Journeys of real messages from MQI calls: activity-trace.md §8, linear time.

Per original MsgId (the id the first application put gave it) the chain is followed:
application put -> (sending MCA get from the transmission queue, matched by XmitqMsgId ->
receiving MCA put on the next queue manager via the same channel name)* -> consumer get.
Every lookup is a dict keyed by MsgId / XmitqMsgId, so the work is linear in the calls.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from pcf import mqc
from traceroute.journeys.calls import ActivityTrace, MQICall, iso
from traceroute.journeys.verdict import JourneyVerdict, Location

V = JourneyVerdict
ConnKey = tuple[str, str]


@dataclass(slots=True)
class Step:
    """One call on a message's path: the call, what it did, the local queue, the channel."""

    call: MQICall
    role: str            # put, mca_get, mca_put, dlq_put, get, browse, failed_put
    queue: str | None
    channel: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The JSON object of the `path` contract."""
        c = self.call
        return {"queue_manager": c.qmgr, "operation": c.op_name, "queue": self.queue,
                "object_name": c.object_name or None, "channel": self.channel,
                "appl_name": c.conn.appl_name or None,
                "conn_id": c.conn.conn_id.hex().upper() if any(c.conn.conn_id) else None,
                "time": iso(c.time), "comp_code": c.comp_code, "reason": c.reason}


@dataclass(slots=True)
class Journey:
    """One original message: its path, verdict, last location, reply link and notes."""

    msg_id: bytes
    verdict: JourneyVerdict
    steps: list[Step]
    last_location: Location
    reply_to: bytes | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def msg_id_hex(self) -> str:
        """The MsgId as 48 upper-case hex digits."""
        return self.msg_id.hex().upper()

    @property
    def hops(self) -> int:
        """Channel hops made (receiving MCA puts seen)."""
        return sum(1 for s in self.steps if s.role in ("mca_put", "dlq_put"))

    @property
    def times(self) -> list[datetime]:
        """The known times of the steps, in path order."""
        return [t for t in (s.call.time for s in self.steps) if t is not None]

    @property
    def applications(self) -> list[str]:
        """The non-MCA applications that touched the message, in order, once each."""
        seen: dict[str, None] = {}
        for s in self.steps:
            if not s.call.conn.is_mca and s.call.conn.appl_name:
                seen.setdefault(s.call.conn.appl_name, None)
        return list(seen)

    def to_dict(self) -> dict[str, object]:
        """The JSON Lines object of `mqroute follow --json` (issue 15's contract)."""
        return {"msg_id": self.msg_id_hex, "verdict": str(self.verdict),
                "path": [s.to_dict() for s in self.steps],
                "last_location": self.last_location.to_dict(),
                "reply_to": self.reply_to.hex().upper() if self.reply_to else None,
                "notes": list(self.notes)}


@dataclass(slots=True)
class Reconstruction:
    """Every journey, plus what the trace data itself says is missing or repeated."""

    journeys: list[Journey]
    calls: int = 0
    duplicates: int = 0                        # trace messages seen more than once
    holes: dict[ConnKey, list[int]] = field(default_factory=dict)  # missing SeqNumbers
    untraceable: int = 0                       # puts/gets without a MsgId (TraceLevel LOW)

    def notes(self) -> list[str]:
        """Run-wide notes: duplicates and SeqNumber holes per connection."""
        out = []
        if self.duplicates:
            out.append(f"{self.duplicates} duplicate trace message(s) ignored")
        for (qm, conn), seqs in sorted(self.holes.items()):
            out.append(f"trace messages missing on {qm} for connection {conn}: "
                       f"SeqNumber {_ranges(seqs)}")
        if self.untraceable:
            out.append(f"{self.untraceable} put/get call(s) without MsgId (TraceLevel LOW)")
        return out


def _ranges(seqs: list[int]) -> str:
    out: list[str] = []
    for s in seqs:
        if out and out[-1].split("-")[-1] == str(s - 1):
            out[-1] = out[-1].split("-")[0] + f"-{s}"
        else:
            out.append(str(s))
    return ", ".join(out)


def _ordered_calls(traces: Iterable[ActivityTrace]
                   ) -> tuple[list[ActivityTrace], int, dict[ConnKey, list[int]]]:
    """The trace messages, each connection's in SeqNumber order; duplicates dropped and
    missing SeqNumbers found."""
    by_conn: dict[ConnKey, dict[int, ActivityTrace]] = defaultdict(dict)
    duplicates = 0
    for t in traces:
        seqs = by_conn[t.conn.key]
        if t.conn.seq_number in seqs:
            duplicates += 1
            continue
        seqs[t.conn.seq_number] = t
    ordered: list[ActivityTrace] = []
    holes: dict[ConnKey, list[int]] = {}
    for key, seqs in by_conn.items():
        top = max(seqs)
        if len(seqs) != top + 1:
            missing = [s for s in range(top + 1) if s not in seqs]
            if missing:
                holes[key] = missing
        ordered.extend(seqs[s] for s in sorted(seqs))
    return ordered, duplicates, holes


_PUT, _PUT1, _GET, _CALLBACK = mqc.MQXF_PUT, mqc.MQXF_PUT1, mqc.MQXF_GET, mqc.MQXF_CALLBACK
_OPEN, _FAILED = mqc.MQXF_OPEN, mqc.MQCC_FAILED


class _Index:
    """The calls that move messages, keyed by the ids §8 links them with."""

    def __init__(self, traces: list[ActivityTrace]) -> None:
        self.origins: list[MQICall] = []            # application puts, in input order
        self.failed: list[MQICall] = []             # application puts that failed
        self.mca_gets: dict[bytes, list[MQICall]] = defaultdict(list)   # by XmitqMsgId
        self.mca_puts: dict[bytes, list[MQICall]] = defaultdict(list)   # by MsgId
        self.gets: dict[bytes, list[MQICall]] = defaultdict(list)       # by MsgId
        self.opens: dict[int, MQICall] = {}         # id(call) -> its MQOPEN
        self.untraceable = 0
        self.calls = 0
        handles: dict[tuple[ConnKey, int], MQICall] = {}
        origins, failed = self.origins, self.failed
        mca_gets, mca_puts, gets, opens = self.mca_gets, self.mca_puts, self.gets, self.opens
        untraceable = 0
        for t in traces:
            key = t.conn.key
            mca = t.conn.is_mca
            self.calls += len(t.calls)
            for c in t.calls:
                op = c.operation
                if op in (_PUT, _PUT1):
                    is_put = True
                elif op in (_GET, _CALLBACK):
                    is_put = False
                else:
                    if op == _OPEN and c.hobj is not None and c.comp_code != _FAILED:
                        handles[key, c.hobj] = c
                    continue
                if c.hobj is not None and handles:
                    opened = handles.get((key, c.hobj))
                    if opened is not None:
                        opens[id(c)] = opened
                msg_id = c.msg_id
                if is_put:
                    if c.comp_code == _FAILED:
                        if not mca:
                            failed.append(c)
                        elif msg_id:
                            mca_puts[msg_id].append(c)
                    elif c.dist_list and not mca:
                        for copy in split_distribution_list(c, opens.get(id(c))):
                            if copy.failed:
                                failed.append(copy)
                            elif copy.msg_id is None:
                                untraceable += 1
                            else:
                                origins.append(copy)
                    elif msg_id is None:
                        untraceable += 1
                    elif mca:
                        mca_puts[msg_id].append(c)
                    else:
                        origins.append(c)
                elif c.comp_code != _FAILED:
                    if mca:
                        xid = c.xmitq_msg_id or msg_id
                        if xid is not None:
                            mca_gets[xid].append(c)
                        else:
                            untraceable += 1
                    elif msg_id is None:
                        untraceable += 1
                    else:
                        gets[msg_id].append(c)
        self.untraceable = untraceable
        self.shared: dict[bytes, int] = {}  # MsgId -> application puts of it, when > 1
        seen: set[bytes] = set()
        for c in origins:
            if c.msg_id in seen:
                self.shared[c.msg_id] = self.shared.get(c.msg_id, 1) + 1  # type: ignore[index]
            seen.add(c.msg_id)  # type: ignore[arg-type]

    def queue(self, c: MQICall) -> str | None:
        """The local queue of a put/get, from the call or else its connection's MQOPEN."""
        q = c.resolved_local_q_name  # MQICall.local_queue, inline (called for every step)
        if not q:
            rq, rqm = c.resolved_q_name, c.resolved_q_mgr
            q = "" if rq and rqm and rqm != c.conn.qmgr else (rq or c.object_name)
        if not q:
            opened = self.opens.get(id(c))
            if opened is not None:
                q = opened.local_queue
        return q or None

    def remote(self, c: MQICall) -> bool:
        """True when a put went to a transmission queue (resolved to another qmgr)."""
        qm = c.resolved_q_mgr
        if not qm and (opened := self.opens.get(id(c))) is not None:
            qm = opened.resolved_q_mgr
        return bool(qm) and qm != c.qmgr


def split_distribution_list(put: MQICall, opened: MQICall | None) -> list[MQICall]:
    """A put to a distribution list as one put per queue (MQGACF_APP_DIST_LIST groups of the
    put, names from the MQOPEN's groups in the same order when the put's lack them)."""
    names = opened.dist_list if opened is not None else []
    copies = []
    for n, e in enumerate(put.dist_list):
        named = names[n] if n < len(names) else None
        queue = e.object_name or (named.object_name if named else "")
        qmgr = e.object_qmgr or (named.object_qmgr if named else "")
        failed = e.comp_code == mqc.MQCC_FAILED
        copies.append(replace(
            put, msg_id=None if failed else (e.msg_id or put.msg_id),
            correl_id=e.correl_id or put.correl_id, object_name=queue, object_qmgr=qmgr,
            resolved_q_name=queue, resolved_q_mgr=qmgr or put.qmgr,
            resolved_local_q_name="", resolved_local_q_mgr="",
            comp_code=e.comp_code if e.comp_code is not None else put.comp_code,
            reason=e.reason if e.reason is not None else put.reason, dist_list=[]))
    return copies


class _Walk:
    """Following one message from its first known call."""

    __slots__ = ("gap", "index", "msg_id", "notes", "steps", "used")

    def __init__(self, index: _Index, msg_id: bytes, used: set[int]) -> None:
        self.index = index
        self.msg_id = msg_id
        self.used = used
        self.steps: list[Step] = []
        self.notes: list[str] = []
        self.gap = False

    def take(self, c: MQICall, role: str, channel: str | None = None) -> Step:
        self.used.add(id(c))
        step = Step(c, role, self.index.queue(c), channel)
        self.steps.append(step)
        return step

    def unused(self, calls: Sequence[MQICall]) -> Sequence[MQICall]:
        if len(calls) == 1:  # the usual case: one call per MsgId in each table
            return () if id(calls[0]) in self.used else calls
        if not calls:
            return calls
        used = self.used
        return [c for c in calls if id(c) not in used]

    def after_put(self, put: MQICall) -> tuple[JourneyVerdict, Location]:
        """Where a successful put (application or MCA) leads."""
        ix = self.index
        qm = put.conn.qmgr
        queue = ix.queue(put)
        while True:
            remote = ix.remote(put)
            result = self.on_xmitq(qm, queue, put) if remote else self.on_queue(qm, queue)
            if result.__class__ is tuple:
                return result  # type: ignore[return-value]
            put = result  # type: ignore[assignment]
            qm, queue = put.conn.qmgr, ix.queue(put)
            if put.is_dead_letter:
                return V.DEAD_LETTERED, Location(qm, queue)

    def on_queue(self, qm: str, queue: str | None) -> tuple[JourneyVerdict, Location] | MQICall:
        """On a local queue: browses never consume; the first destructive get does."""
        gets = self.unused(self.index.gets.get(self.msg_id, ()))
        queue_of = self.index.queue
        here = [g for g in gets if g.conn.qmgr == qm and (
            not queue or (gq := queue_of(g)) is None or gq == queue)]
        for g in here:
            if g.is_browse:
                self.take(g, "browse")
                continue
            self.take(g, "get")
            return V.CONSUMED, Location(qm, self.index.queue(g) or queue)
        return self.jump(V.ON_QUEUE, Location(qm, queue))

    def on_xmitq(self, qm: str, xmitq: str | None,
                 put: MQICall) -> tuple[JourneyVerdict, Location] | MQICall:
        """On a transmission queue: the sending MCA's get, then the receiving MCA's put."""
        ix = self.index
        gets = [g for g in self.unused(ix.mca_gets.get(self.msg_id, ())) if g.conn.qmgr == qm
                and not g.is_browse]
        if not gets:
            return self.jump(V.ON_XMITQ, Location(qm, xmitq))
        get = gets[0]
        channel = get.conn.channel_name or None
        self.take(get, "mca_get", channel)
        candidates = [p for p in self.unused(ix.mca_puts.get(self.msg_id, ()))
                      if p.conn.qmgr != qm and (not channel or p.conn.channel_name == channel)]
        if not candidates:
            others = [p for p in self.unused(ix.mca_puts.get(self.msg_id, [])) if p.qmgr != qm]
            if len(others) == 1:
                candidates = others
                self.notes.append(f"channel names differ: {channel} on {qm}, "
                                  f"{others[0].conn.channel_name} on {others[0].qmgr}")
        if not candidates:
            return self.jump(V.IN_TRANSIT, Location(qm, ix.queue(get) or xmitq, channel))
        for p in candidates:
            if p.failed:
                self.take(p, "failed_put", p.conn.channel_name or None)
                continue
            self.take(p, "dlq_put" if p.is_dead_letter else "mca_put",
                      p.conn.channel_name or None)
            self.skew(get, p)
            return p
        last = self.steps[-1].call
        return V.PUT_FAILED, Location(last.qmgr, ix.queue(last), None)

    def skew(self, before: MQICall, after: MQICall) -> None:
        h1, h2 = before.high_res_time, after.high_res_time
        if h1 and h2 and h2 >= h1:
            return
        t1, t2 = before.time, after.time
        if t1 is not None and t2 is not None and t2 < t1:
            self.notes.append(f"clock skew seen: {after.qmgr} is at least "
                              f"{(t1 - t2).total_seconds():g} s behind {before.qmgr}")

    def jump(self, verdict: JourneyVerdict,
             here: Location) -> tuple[JourneyVerdict, Location] | MQICall:
        """Nothing follows here; if later records of the message exist, records are missing
        in between: note the gap and go on from the next one. Not when several applications
        put the same MsgId (a distribution list): the later records may be another copy's."""
        ix = self.index
        if ix.shared and ix.shared.get(self.msg_id, 0) > 1:
            return verdict, here
        puts = [p for p in self.unused(ix.mca_puts.get(self.msg_id, ()))
                if p.conn.qmgr != here.queue_manager]
        if puts:
            p = puts[0]
            self.gap = True
            self.notes.append(f"records missing between {here.queue_manager} "
                              f"({here.queue}) and the MCA put on {p.qmgr}")
            self.take(p, "dlq_put" if p.is_dead_letter else "mca_put",
                      p.conn.channel_name or None)
            return p
        gets = [g for g in self.unused(ix.gets.get(self.msg_id, ()))
                if g.conn.qmgr != here.queue_manager and not g.is_browse]
        if gets:
            g = gets[0]
            self.gap = True
            self.notes.append(f"records missing between {here.queue_manager} "
                              f"({here.queue}) and the get on {g.qmgr}")
            self.take(g, "get")
            return V.CONSUMED, Location(g.qmgr, ix.queue(g))
        return verdict, here


def _journey(index: _Index, msg_id: bytes, first: MQICall, used: set[int]) -> Journey:
    w = _Walk(index, msg_id, used)
    if first.conn.is_mca and first.is_put:  # the original put was not traced
        w.gap = True
        w.notes.append(f"the original put was not traced; first seen on {first.qmgr}")
        w.take(first, "dlq_put" if first.is_dead_letter else "mca_put",
               first.conn.channel_name or None)
        if first.is_dead_letter:
            verdict, where = V.DEAD_LETTERED, Location(first.qmgr, index.queue(first))
        else:
            verdict, where = w.after_put(first)
    elif first.is_get and first.conn.is_mca:  # a sending MCA's get: the put was not traced
        w.gap = True
        w.notes.append(f"the original put was not traced; first seen on {first.qmgr}")
        result = w.on_xmitq(first.qmgr, index.queue(first), first)
        if isinstance(result, tuple):
            verdict, where = result
        elif result.is_dead_letter:
            verdict, where = V.DEAD_LETTERED, Location(result.qmgr, index.queue(result))
        else:
            verdict, where = w.after_put(result)
    elif first.is_get:
        w.gap = True
        w.notes.append(f"the original put was not traced; first seen on {first.qmgr}")
        verdict, where = w.on_queue(first.qmgr, index.queue(first))  # type: ignore[misc]
    else:
        w.take(first, "put")
        verdict, where = w.after_put(first)
    if w.gap and verdict not in (V.CONSUMED, V.DEAD_LETTERED, V.PUT_FAILED):
        verdict = V.INCOMPLETE
    return Journey(msg_id, verdict, w.steps, where, notes=w.notes)


def reconstruct(traces: Iterable[ActivityTrace], *, sequences: bool = True) -> Reconstruction:
    """Every journey in the trace messages given (any order, any mix of queue managers).

    `sequences=False` skips the SeqNumber-hole check (for a subset of a connection's trace
    messages, as a partition of the analyze job holds)."""
    enabled = gc.isenabled()
    gc.disable()  # millions of small acyclic objects: the cycle collector only costs time
    try:
        return _reconstruct(traces, sequences)
    finally:
        if enabled:
            gc.enable()


def _reconstruct(traces: Iterable[ActivityTrace], sequences: bool) -> Reconstruction:
    ordered, duplicates, holes = _ordered_calls(traces)
    if not sequences:
        holes = {}
    index = _Index(ordered)
    used: set[int] = set()
    journeys: list[Journey] = []
    by_id: dict[bytes, Journey] = {}
    origin_of: dict[int, MQICall] = {}
    for put in index.origins:
        if id(put) in used:
            continue
        j = _journey(index, put.msg_id, put, used)  # type: ignore[arg-type]
        if put.msg_id in by_id:
            j.notes.append("the same MsgId was put again by "
                           f"{put.conn.appl_name} on {put.qmgr}")
        else:
            by_id[put.msg_id] = j  # type: ignore[index]
        origin_of[id(j)] = put
        journeys.append(j)
    for put in index.failed:  # failed puts: the Reason is the answer
        used.add(id(put))
        j = Journey(put.msg_id or bytes(24), V.PUT_FAILED,
                    [Step(put, "failed_put", index.queue(put) or put.object_name or None,
                          put.conn.channel_name or None if put.conn.is_mca else None)],
                    Location(put.qmgr, index.queue(put) or put.object_name or None))
        journeys.append(j)
    # records of messages whose original put was not traced
    for table in (index.mca_gets, index.mca_puts, index.gets):
        for msg_id, found in table.items():
            if msg_id in by_id:
                continue
            for c in found:
                if id(c) not in used:
                    j = _journey(index, msg_id, c, used)
                    by_id[msg_id] = j
                    journeys.append(j)
                    break
    _link_replies(journeys, by_id, origin_of)
    _hole_notes(journeys, holes)
    return Reconstruction(journeys, index.calls, duplicates, holes, index.untraceable)


def _link_replies(journeys: list[Journey], by_id: dict[bytes, Journey],
                  origin_of: dict[int, MQICall]) -> None:
    """A reply is a new message whose CorrelId is the request's MsgId, put as MQMT_REPLY or
    by the connection that consumed the request."""
    consumed_by: set[tuple[ConnKey, bytes]] = set()
    for j in journeys:
        if j.verdict == V.CONSUMED and j.steps and j.steps[-1].role == "get":
            consumed_by.add((j.steps[-1].call.conn.key, j.msg_id))
    for j in journeys:
        put = origin_of.get(id(j))
        if put is None or not put.correl_id or not any(put.correl_id):
            continue
        request = by_id.get(put.correl_id)
        if request is None or request is j:
            continue
        if put.msg_type == mqc.MQMT_REPLY or (put.conn.key, put.correl_id) in consumed_by:
            j.reply_to = put.correl_id


def _hole_notes(journeys: list[Journey], holes: dict[ConnKey, list[int]]) -> None:
    if not holes:
        return
    for j in journeys:
        for key in dict.fromkeys(s.call.conn.key for s in j.steps):
            if key in holes:
                j.notes.append(f"trace messages missing on {key[0]} for connection "
                               f"{key[1]}: SeqNumber {_ranges(holes[key])}")
