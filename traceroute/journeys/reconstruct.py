"""Journeys of real messages from MQI calls: activity-trace.md §8, linear time.

Per original MsgId (the id the first application put gave it) the chain is followed:
application put -> (sending MCA get from the transmission queue, matched by XmitqMsgId ->
receiving MCA put on the next queue manager via the same channel name)* -> consumer get.
Every lookup is a dict keyed by MsgId / XmitqMsgId, so the work is linear in the calls.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from pcf import mqc
from traceroute.journeys.calls import ActivityTrace, MQICall, iso, paused_collector
from traceroute.journeys.verdict import JourneyVerdict, Location
from traceroute.stats.join import missing_ranges, show_ranges

V = JourneyVerdict
ConnKey = tuple[str, str]


@dataclass(slots=True)
class Step:
    """One call on a message's path: the call, what it did, the local queue, the channel."""

    call: MQICall
    role: str            # put, mca_get, mca_put, dlq_put, get, browse, failed_put (a failed
    #                      MQPUT/MQPUT1, or an application's MQOPEN for output that failed)
    queue: str | None
    channel: str | None = None  # an MCA's channel; a client application's SVRCONN channel

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
    gap_qmgrs: tuple[str, ...] = ()  # where records of it are missing (holes named there)
    #: a publication: one journey per copy it was followed to (`traceroute.journeys.
    #: publications`), each a copy a subscriber (or another queue manager's engine) had
    branches: list[Journey] = field(default_factory=list)
    #: the original put was not traced and nothing else is missing: the verdict its
    #: records give (a publication's copy begins so: the queue manager made it)
    untraced_verdict: JourneyVerdict | None = None

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
        """The JSON Lines object of `mqroute follow --json` (issue 15's contract); a
        publication's adds "branches": each copy's journey as such an object."""
        out: dict[str, object] = {
            "msg_id": self.msg_id_hex, "verdict": str(self.verdict),
            "path": [s.to_dict() for s in self.steps],
            "last_location": self.last_location.to_dict(),
            "reply_to": self.reply_to.hex().upper() if self.reply_to else None,
            "notes": list(self.notes)}
        if self.branches:
            out["branches"] = [b.to_dict() for b in self.branches]
        return out

    @property
    def leaves(self) -> list[Journey]:
        """The ends: itself, or each branch's ends (depth first, in order)."""
        if not self.branches:
            return [self]
        return [leaf for b in self.branches for leaf in b.leaves]


@dataclass(slots=True)
class Reconstruction:
    """Every journey, plus what the trace data itself says is missing or repeated."""

    journeys: list[Journey]
    calls: int = 0
    duplicates: int = 0                        # trace messages seen more than once
    #: missing SeqNumbers per connection, as (from, to) ranges
    holes: dict[ConnKey, list[tuple[int, int]]] = field(default_factory=dict)
    untraceable: int = 0                       # puts/gets without a MsgId (TraceLevel LOW)
    #: the MQSUB calls that made a subscription (`publications.link_publications` reads them)
    subscriptions: list[MQICall] = field(default_factory=list)

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


def _ranges(seqs: list[tuple[int, int]]) -> str:
    return show_ranges(seqs)


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
    holes: dict[ConnKey, list[tuple[int, int]]] = {}
    for key, seqs in by_conn.items():
        top = max(seqs)
        if len(seqs) != top + 1:   # as ranges: a SeqNumber is a claim, never a loop count
            missing = missing_ranges(seqs, 0, top)
            if missing:
                holes[key] = list(missing)
        ordered.extend(seqs[s] for s in sorted(seqs))
    return ordered, duplicates, holes


_PUT, _PUT1, _GET, _CALLBACK = mqc.MQXF_PUT, mqc.MQXF_PUT1, mqc.MQXF_GET, mqc.MQXF_CALLBACK
_OPEN, _FAILED, _SUB = mqc.MQXF_OPEN, mqc.MQCC_FAILED, mqc.MQXF_SUB


def failed_open_for_output(c: MQICall) -> bool:
    """True for an application's MQOPEN for output (MQOO_OUTPUT) that failed: a put that
    failed at its open (2085, 2087, 2082, 2196/2197, 2035 ...), a put-failed journey as a
    failed MQPUT is. A failed open for input, or of unknown options, is no put."""
    return (c.operation == _OPEN and c.comp_code == _FAILED and not c.conn.is_mca
            and c.open_options is not None and bool(c.open_options & mqc.MQOO_OUTPUT))


class _Index:
    """The calls that move messages, keyed by the ids §8 links them with."""

    def __init__(self, traces: list[ActivityTrace]) -> None:
        self.origins: list[MQICall] = []            # application puts, in input order
        self.failed: list[MQICall] = []             # application puts that failed
        self.mca_gets: dict[bytes, list[MQICall]] = defaultdict(list)   # by XmitqMsgId
        self.mca_puts: dict[bytes, list[MQICall]] = defaultdict(list)   # by MsgId
        self.gets: dict[bytes, list[MQICall]] = defaultdict(list)       # by MsgId
        self.opens: dict[int, MQICall] = {}         # id(call) -> its MQOPEN
        self.subscriptions: list[MQICall] = []      # MQSUB calls that subscribed
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
                    elif op == _OPEN and not mca and failed_open_for_output(c):
                        failed.append(c)  # the put never got as far as its MQPUT
                    elif op == _SUB and c.comp_code != _FAILED:
                        self.subscriptions.append(c)
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


def _when(c: MQICall) -> tuple[int, float]:
    """A sort key of a call's time: known times first, earliest first."""
    if c.high_res_time:
        return 0, c.high_res_time / 1_000_000
    t = c.time
    return (0, t.timestamp()) if t is not None else (1, 0.0)


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
    """Following one message from its first known call. A call taken is removed from its
    index list (`taken_from`), so what the lists hold is what no journey has used yet."""

    __slots__ = ("gap", "gap_qmgrs", "holes", "index", "msg_id", "notes", "steps", "untraced")

    def __init__(self, index: _Index, msg_id: bytes) -> None:
        self.index = index
        self.msg_id = msg_id
        self.steps: list[Step] = []
        self.notes: list[str] = []
        self.gap = False
        self.holes = False  # records missing after the message was first seen
        self.untraced = False  # its original put was not traced
        self.gap_qmgrs: set[str] = set()  # where records are missing (for the hole notes)

    def take(self, c: MQICall, role: str, channel: str | None,
             taken_from: list[MQICall] | None) -> None:
        if taken_from is not None:
            if taken_from[0] is c:
                del taken_from[0]
            else:
                taken_from.remove(c)  # identity: MQICall compares by identity
        q = c.resolved_local_q_name  # _Index.queue, inline for the usual case
        if channel is None and c.conn.channel_name:
            channel = c.conn.channel_name  # a client application: its SVRCONN channel
        self.steps.append(Step(c, role, q if q else self.index.queue(c), channel))

    def after_put(self, put: MQICall) -> tuple[JourneyVerdict, Location]:
        """Where a successful put (application or MCA) leads."""
        return self.follow_from(put)

    def follow_from(self, result: tuple[JourneyVerdict, Location] | MQICall
                    ) -> tuple[JourneyVerdict, Location]:
        """Follow the message on from a put already taken or a sending MCA's get not yet
        taken, to its verdict and last location."""
        ix = self.index
        while result.__class__ is not tuple:
            c: MQICall = result  # type: ignore[assignment]
            if c.operation in (_GET, _CALLBACK):  # a sending MCA's get
                result = self.from_mca_get(c)
                continue
            qm, queue = c.conn.qmgr, ix.queue(c)
            if c.is_dead_letter and c.conn.is_mca:
                return V.DEAD_LETTERED, Location(qm, queue)
            result = self.on_xmitq(qm, queue) if ix.remote(c) else self.on_queue(qm, queue)
        return result  # type: ignore[return-value]

    def on_queue(self, qm: str, queue: str | None) -> tuple[JourneyVerdict, Location] | MQICall:
        """On a local queue: browses never consume; the first destructive get does."""
        gets = self.index.gets.get(self.msg_id, ())
        if not gets:
            return self.jump(V.ON_QUEUE, Location(qm, queue))
        queue_of = self.index.queue
        here = [g for g in gets if g.conn.qmgr == qm and (
            not queue or (gq := queue_of(g)) is None or gq == queue)]
        for g in here:
            if g.is_browse:
                self.take(g, "browse", None, gets)  # type: ignore[arg-type]
                continue
            self.take(g, "get", None, gets)  # type: ignore[arg-type]
            return V.CONSUMED, Location(qm, self.index.queue(g) or queue)
        return self.jump(V.ON_QUEUE, Location(qm, queue))

    def on_xmitq(self, qm: str, xmitq: str | None) -> tuple[JourneyVerdict, Location] | MQICall:
        """On a transmission queue: the sending MCA's get (a call to go on from with
        `from_mca_get`), or where the message stays."""
        mca_gets = self.index.mca_gets.get(self.msg_id)
        if mca_gets:
            for g in mca_gets:
                if g.conn.qmgr == qm and not g.is_browse:
                    return g
        return self.jump(V.ON_XMITQ, Location(qm, xmitq))

    def from_mca_get(self, get: MQICall) -> tuple[JourneyVerdict, Location] | MQICall:
        """The sending MCA's get, then the receiving MCA's put on the next queue manager."""
        ix = self.index
        msg_id = self.msg_id
        qm = get.conn.qmgr
        channel = get.conn.channel_name or None
        self.take(get, "mca_get", channel, ix.mca_gets.get(msg_id))
        mca_puts = ix.mca_puts.get(msg_id, [])
        candidates = [p for p in mca_puts
                      if p.conn.qmgr != qm and (not channel or p.conn.channel_name == channel)]
        if not candidates and not any(g.conn.qmgr != qm and not g.is_browse
                                      for g in ix.mca_gets.get(msg_id, ())):
            # one receiving put elsewhere, and no sending MCA's get beyond this one that it
            # might follow instead: the two ends name the channel differently
            others = [p for p in mca_puts if p.qmgr != qm]
            if len(others) == 1:
                candidates = others
                self.notes.append(f"channel names differ: {channel} on {qm}, "
                                  f"{others[0].conn.channel_name} on {others[0].qmgr}")
        if not candidates:
            return self.jump(V.IN_TRANSIT, Location(qm, ix.queue(get), channel))
        # the same message got again from this transmission queue: this attempt's puts are
        # those before it (the MCA backed the message out and the channel sent it again)
        again = min((g for g in ix.mca_gets.get(msg_id, ())
                     if g.conn.qmgr == qm and not g.is_browse and _when(g) > _when(get)),
                    key=_when, default=None)
        for p in sorted(candidates, key=_when):
            if again is not None and _when(p) > _when(again):
                break
            if p.comp_code == _FAILED:
                self.take(p, "failed_put", p.conn.channel_name or None, mca_puts)
                continue
            self.take(p, "dlq_put" if p.is_dead_letter else "mca_put",
                      p.conn.channel_name or None, mca_puts)
            self.skew(get, p)
            return p
        last = self.steps[-1].call
        if again is not None:  # backed out onto the transmission queue, sent again
            self.notes.append(f"the put on {last.qmgr} failed with reason {last.reason}: "
                              f"backed out onto {ix.queue(get)} on {qm} and sent again")
            return again
        if last.comp_code == _FAILED and last.persistence == mqc.MQPER_PERSISTENT:
            # no dead-letter queue took it: a persistent message is never discarded, the
            # channel backs it out onto its transmission queue and retries
            self.notes.append(f"the put on {last.qmgr} failed with reason {last.reason} "
                              f"and no dead-letter queue took it: backed out onto "
                              f"{ix.queue(get)} on {qm}, waiting for the channel")
            return V.ON_XMITQ, Location(qm, ix.queue(get))
        return V.PUT_FAILED, Location(last.qmgr, ix.queue(last), None)

    def journey(self, end: tuple[JourneyVerdict, Location]) -> Journey:
        """The Journey walked, ending at `end` (incomplete when records were missing and
        no final answer was seen)."""
        verdict, where = end
        found = verdict
        if self.gap and verdict not in (V.CONSUMED, V.DEAD_LETTERED, V.PUT_FAILED):
            verdict = V.INCOMPLETE
        return Journey(self.msg_id, verdict, self.steps, where, notes=self.notes,
                       gap_qmgrs=tuple(sorted(self.gap_qmgrs)),
                       untraced_verdict=found if self.untraced and not self.holes else None)

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
        in between (a hole): note it and go on from where the next records begin (`_next`),
        so that no call of the message that is there is left out. Not when several
        applications put the same MsgId (a distribution list): the later records may be
        another copy's."""
        ix = self.index
        if ix.shared and ix.shared.get(self.msg_id, 0) > 1:
            return verdict, here
        found = self._next(here)
        if found is None:
            return verdict, here
        kind, c = found
        self.gap = True
        self.holes = True
        self.gap_qmgrs.update((here.queue_manager or "", c.qmgr))
        what = {"mca_put": "MCA put", "mca_get": "sending MCA's get", "get": "get"}[kind]
        self.notes.append(f"records missing between {here.queue_manager} "
                          f"({here.queue}) and the {what} on {c.qmgr}")
        if kind == "mca_get":
            return c  # from_mca_get takes it
        if kind == "mca_put":
            self.take(c, "dlq_put" if c.is_dead_letter else "mca_put",
                      c.conn.channel_name or None, ix.mca_puts[self.msg_id])
            return c
        self.take(c, "get", None, ix.gets[self.msg_id])
        return V.CONSUMED, Location(c.qmgr, ix.queue(c))

    def _next(self, here: Location) -> tuple[str, MQICall] | None:
        """Where the message's later records begin: of its calls no journey has taken (on
        another queue manager), those that no other such call leads to, the earliest in
        time (at one time: a put before an MCA's get before a consumer's get). Only the
        message's own calls decide, so any partitioning by MsgId gives the same answer."""
        ix, msg_id, qm = self.index, self.msg_id, here.queue_manager
        puts = [p for p in ix.mca_puts.get(msg_id, ()) if p.conn.qmgr != qm]
        mca_gets = [g for g in ix.mca_gets.get(msg_id, ())
                    if g.conn.qmgr != qm and not g.is_browse]
        gets = [g for g in ix.gets.get(msg_id, ()) if g.conn.qmgr != qm and not g.is_browse]
        if not (puts or mca_gets or gets):
            return None
        put_qmgrs = {p.conn.qmgr for p in puts}
        sent = {(g.conn.channel_name, g.conn.qmgr) for g in mca_gets}
        heads: list[tuple[int, str, MQICall]] = [
            (0, "mca_put", p) for p in puts
            if not any(ch == p.conn.channel_name and sq != p.conn.qmgr for ch, sq in sent)]
        heads += [(1, "mca_get", g) for g in mca_gets if g.conn.qmgr not in put_qmgrs]
        heads += [(2, "get", g) for g in gets if g.conn.qmgr not in put_qmgrs]
        if not heads:  # a loop through the queue managers: take the earliest call
            heads = [(0, "mca_put", p) for p in puts] + [(1, "mca_get", g) for g in mca_gets] \
                + [(2, "get", g) for g in gets]
        _, kind, call = min(heads, key=lambda h: (_when(h[2]), h[0]))
        return kind, call


def _journey(index: _Index, put: MQICall) -> Journey:
    """The journey of the message an application's put (`put`) began."""
    w = _Walk(index, put.msg_id)  # type: ignore[arg-type]
    w.take(put, "put", None, None)
    return w.journey(w.follow_from(put))


def _chain_journey(index: _Index, put: MQICall) -> Journey | None:
    """`_journey` for the common chain, without the walk's searches: the put, per hop the
    sending MCA's get and the receiving MCA's put (one candidate, same channel, HighResTime
    in order), at most one consumer get, every call of the MsgId taken. None for anything
    else (the walk decides). The rows' twin is `traceroute.journeys.chains`."""
    msg_id = put.msg_id
    if msg_id in index.shared:
        return None
    gets = index.gets.get(msg_id)
    if gets and (len(gets) > 1 or gets[0].is_browse):
        return None
    mgets = index.mca_gets.get(msg_id)
    mputs = index.mca_puts.get(msg_id)
    if mgets:
        mgets = list(mgets)
        for g in mgets:
            if g.is_browse:
                return None
    if mputs:
        mputs = list(mputs)
        for p in mputs:
            if p.comp_code == _FAILED:
                return None
    queue_of = index.queue
    steps = [Step(put, "put", queue_of(put), put.conn.channel_name or None)]
    c = put
    while True:
        qm = c.conn.qmgr
        queue = queue_of(c)
        if c.is_dead_letter and c.conn.is_mca:
            end = V.DEAD_LETTERED, Location(qm, queue)
            break
        if not index.remote(c):
            if not gets:
                end = V.ON_QUEUE, Location(qm, queue)
                break
            g = gets[0]
            gq = queue_of(g)
            if g.conn.qmgr != qm or not (not queue or gq is None or gq == queue):
                return None
            steps.append(Step(g, "get", gq, g.conn.channel_name or None))
            end = V.CONSUMED, Location(qm, gq or queue)
            gets = None
            break
        get = None
        for g in mgets or ():
            if g.conn.qmgr == qm:
                get = g
                break
        if get is None:
            end = V.ON_XMITQ, Location(qm, queue)
            break
        mgets.remove(get)  # type: ignore[union-attr]
        channel = get.conn.channel_name or None
        steps.append(Step(get, "mca_get", queue_of(get), channel))
        found = None
        for p in mputs or ():
            if p.conn.qmgr != qm and (not channel or p.conn.channel_name == channel):
                if found is not None:
                    return None  # a choice by time: the walk's
                found = p
        if found is None:
            end = V.IN_TRANSIT, Location(qm, queue_of(get), channel)
            break
        for g in mgets:  # type: ignore[union-attr]
            if g.conn.qmgr == qm:
                return None  # sent again: the walk's
        h1, h2 = get.high_res_time, found.high_res_time
        if not (h1 and h2 and h2 >= h1):
            return None  # maybe a clock-skew note
        mputs.remove(found)  # type: ignore[union-attr]
        steps.append(Step(found, "dlq_put" if found.is_dead_letter else "mca_put",
                          queue_of(found), found.conn.channel_name or None))
        c = found
    if gets or mgets or mputs:
        return None  # calls left: a hole, or another copy
    for table in (index.gets, index.mca_gets, index.mca_puts):
        taken = table.get(msg_id)
        if taken:
            del taken[:]
    verdict, where = end
    return Journey(msg_id, verdict, steps, where)  # type: ignore[arg-type]


def _untraced_journey(index: _Index, msg_id: bytes, found: list[MQICall]) -> Journey:
    """The journey of a message whose original put was not traced, from where its records
    begin (`found`: the index list where its calls were met first)."""
    w = _Walk(index, msg_id)
    head = w._next(Location())
    if head is None:  # only browses of it: the first of them
        first = found[0]
        head = ("mca_get" if first.conn.is_mca else "get") if first.is_get else "mca_put", first
    kind, first = head
    w.gap = True
    w.untraced = True
    w.gap_qmgrs.add(first.qmgr)
    w.notes.append(f"the original put was not traced; first seen on {first.qmgr}")
    if kind == "mca_put":
        w.take(first, "dlq_put" if first.is_dead_letter else "mca_put",
               first.conn.channel_name or None, index.mca_puts[msg_id])
        result: tuple[JourneyVerdict, Location] | MQICall = first
    elif kind == "mca_get":
        result = first
    else:
        result = w.on_queue(first.qmgr, index.queue(first))
    return w.journey(w.follow_from(result))


def reconstruct(traces: Iterable[ActivityTrace], *, sequences: bool = True,
                chains: bool = True) -> Reconstruction:
    """Every journey in the trace messages given (any order, any mix of queue managers).

    `sequences=False` skips the SeqNumber-hole check (for a subset of a connection's trace
    messages, as a partition of the analyze job holds)."""
    with paused_collector():
        return _reconstruct(traces, sequences, chains)


def _reconstruct(traces: Iterable[ActivityTrace], sequences: bool, chains: bool
                 ) -> Reconstruction:
    ordered, duplicates, holes = _ordered_calls(traces)
    if not sequences:
        holes = {}
    index = _Index(ordered)
    journeys: list[Journey] = []
    by_id: dict[bytes, Journey] = {}
    origin_of: dict[int, MQICall] = {}
    for put in index.origins:  # each is its own journey's first step, no other's
        j = (chains and _chain_journey(index, put)) or _journey(index, put)
        if put.msg_id in by_id:
            j.notes.append("the same MsgId was put again by "
                           f"{put.conn.appl_name} on {put.qmgr}")
        else:
            by_id[put.msg_id] = j  # type: ignore[index]
        origin_of[id(j)] = put
        journeys.append(j)
    for put in index.failed:  # failed puts (and opens for output): the Reason is the answer
        j = Journey(put.msg_id or bytes(24), V.PUT_FAILED,
                    [Step(put, "failed_put", index.queue(put) or put.object_name or None,
                          put.conn.channel_name or None)],
                    Location(put.qmgr, index.queue(put) or put.object_name or None))
        journeys.append(j)
    # records of messages whose original put was not traced
    for table in (index.mca_gets, index.mca_puts, index.gets):
        for msg_id, found in table.items():
            if msg_id in by_id:
                continue
            if found:  # what is left in the lists no journey has taken
                j = _untraced_journey(index, msg_id, found)
                by_id[msg_id] = j
                journeys.append(j)
    _link_replies(journeys, by_id, origin_of)
    _hole_notes(journeys, holes)
    return Reconstruction(journeys, index.calls, duplicates, holes, index.untraceable,
                          index.subscriptions)


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


_OPEN_ENDED = frozenset({V.ON_QUEUE, V.ON_XMITQ, V.IN_TRANSIT, V.INCOMPLETE})


def _hole_notes(journeys: list[Journey], holes: dict[ConnKey, list[tuple[int, int]]]
                ) -> None:
    if not holes:
        return
    for j in journeys:
        keys = dict.fromkeys(s.call.conn.key for s in j.steps)
        # a record lost where the message's records are missing, or where it was last seen
        # without a final answer, may be one of its calls
        qmgrs = set(j.gap_qmgrs)
        if j.verdict in _OPEN_ENDED:
            qmgrs.add(j.last_location.queue_manager or "")
        keys.update(dict.fromkeys(k for k in sorted(holes) if k[0] in qmgrs))
        for key in keys:
            if key in holes:
                j.notes.append(f"trace messages missing on {key[0]} for connection "
                               f"{key[1]}: SeqNumber {_ranges(holes[key])}")
