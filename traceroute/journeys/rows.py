"""Flat rows of calls and journeys: what the `calls/` and `journeys/` tables hold.

The analyze job (Spark) and its single-process twin use the same three steps, all here:
`call_rows` (one activity-trace message -> one row per MQI call, handles resolved within the
message, the journey key set), `journeys_of_columns` (the rows of any set of journey keys,
as columns -> `reconstruct`, the code of `mqroute follow`; `journeys_of_rows` for dict rows),
`journey_row` (a journey -> its table row). Replies are linked afterwards across keys by
`link_reply_rows` / `link_replies`, the rule `reconstruct` applies. Pure functions over
values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import attrgetter, itemgetter

from pcf import mqc
from traceroute.journeys.calls import (
    ActivityTrace,
    Connection,
    MQICall,
    call_maker,
    iso,
    iso_micros,
    paused_collector,
)
from traceroute.journeys.chains import Chains, chain_journeys
from traceroute.journeys.reconstruct import (
    Journey,
    failed_open_for_output,
    reconstruct,
    split_distribution_list,
)

#: calls/: one row per MQI call (name, Spark SQL type).
CALL_COLUMNS: tuple[tuple[str, str], ...] = (
    ("journey_key", "string"), ("queue_manager", "string"), ("conn_id", "string"),
    ("conn_key", "string"), ("seq_number", "long"), ("call_index", "long"),
    ("appl_name", "string"), ("appl_type", "long"), ("pid", "long"), ("environment", "long"),
    ("channel_name", "string"), ("channel_type", "long"), ("operation", "string"),
    ("operation_id", "long"),
    ("time", "string"), ("high_res_time", "long"), ("operation_date", "string"),
    ("operation_time", "string"), ("comp_code", "long"), ("reason", "long"),
    ("hobj", "long"), ("object_name", "string"), ("object_qmgr", "string"),
    ("resolved_q_name", "string"), ("resolved_q_mgr", "string"),
    ("resolved_local_q_name", "string"), ("resolved_local_q_mgr", "string"),
    ("msg_id", "string"), ("correl_id", "string"), ("format", "string"),
    ("msg_type", "long"), ("msg_length", "long"), ("get_options", "long"),
    ("put_options", "long"), ("open_options", "long"), ("call_type", "long"),
    ("xmitq_msg_id", "string"),
    ("xmitq_remote_q_name", "string"), ("xmitq_remote_q_mgr", "string"),
    ("source", "string"), ("position", "long"))

#: journeys/: one row per original message.
JOURNEY_COLUMNS: tuple[tuple[str, str], ...] = (
    ("msg_id", "string"), ("verdict", "string"), ("last_queue_manager", "string"),
    ("last_queue", "string"), ("last_channel", "string"), ("hops", "long"),
    ("first_time", "string"), ("last_time", "string"), ("applications", "string"),
    ("steps", "long"), ("reply_to", "string"), ("notes", "string"),
    ("origin_conn", "string"), ("origin_correl_id", "string"), ("origin_msg_type", "long"),
    ("consumer_conn", "string"))

_FILLED = ("object_name", "object_qmgr", "resolved_q_name", "resolved_q_mgr",
           "resolved_local_q_name", "resolved_local_q_mgr")


def _hex(b: bytes | None) -> str | None:
    return b.hex().upper() if b is not None else None


def journey_key(call: MQICall) -> str | None:
    """The original MsgId (hex) a message-moving call belongs to; failed application puts
    (and failed opens for output: `failed_open_for_output`) get a key of their own; None for
    calls that move no message."""
    op = call.operation
    if op == mqc.MQXF_OPEN:
        return _failed_key(call) if failed_open_for_output(call) else None
    if op in (mqc.MQXF_PUT, mqc.MQXF_PUT1):
        if call.msg_id is not None and (call.conn.is_mca or not call.failed):
            return _hex(call.msg_id)
        if call.failed and not call.conn.is_mca:
            return _failed_key(call)
        return None
    if op in (mqc.MQXF_GET, mqc.MQXF_CALLBACK) and not call.failed:
        if call.conn.is_mca:
            return _hex(call.xmitq_msg_id or call.msg_id)
        return _hex(call.msg_id)
    return None


def _failed_key(call: MQICall) -> str:
    return f"failed:{call.conn.key[0]}:{call.conn.key[1]}:{call.conn.seq_number}:{call.index}"


def call_rows(trace: ActivityTrace, *, source: str = "", position: int = 0) -> list[dict]:
    """One row per MQI call of a trace message; a put/get without names takes them from the
    message's MQOPEN of the same handle."""
    c = trace.conn
    opens: dict[int, MQICall] = {}
    rows = []
    conn_key = c.key[1]
    calls: list[MQICall] = []
    for call in trace.calls:
        if call.operation == mqc.MQXF_OPEN and call.hobj is not None and not call.failed:
            opens[call.hobj] = call
        if call.dist_list and call.is_put and not c.is_mca:  # one row per queue of the list
            calls.extend(split_distribution_list(call, opens.get(call.hobj)))  # type: ignore[arg-type]
        else:
            calls.append(call)
    for call in calls:
        row = {
            "journey_key": journey_key(call), "queue_manager": c.qmgr,
            "conn_id": _hex(c.conn_id) if c.conn_id.strip(b"\x00") else None,
            "conn_key": conn_key, "seq_number": c.seq_number, "call_index": call.index,
            "appl_name": c.appl_name, "appl_type": c.appl_type, "pid": c.pid,
            "environment": c.environment, "channel_name": c.channel_name or None,
            "channel_type": c.channel_type,
            "operation": call.op_name, "operation_id": call.operation,
            "time": iso(call.time), "high_res_time": call.high_res_time,
            "operation_date": call.operation_date, "operation_time": call.operation_time,
            "comp_code": call.comp_code, "reason": call.reason, "hobj": call.hobj,
            "msg_id": _hex(call.msg_id), "correl_id": _hex(call.correl_id),
            "format": call.format, "msg_type": call.msg_type, "msg_length": call.msg_length,
            "get_options": call.get_options, "put_options": call.put_options,
            "open_options": call.open_options,
            "call_type": call.call_type, "xmitq_msg_id": _hex(call.xmitq_msg_id),
            "xmitq_remote_q_name": call.xmitq_remote_q_name or None,
            "xmitq_remote_q_mgr": call.xmitq_remote_q_mgr or None,
            "source": source, "position": position}
        opened = opens.get(call.hobj) if call.hobj is not None else None
        for name in _FILLED:
            value = getattr(call, name) or (getattr(opened, name) if opened else "")
            row[name] = value or None
        rows.append(row)
    return rows


def _b(text: str | None) -> bytes | None:
    return bytes.fromhex(text) if text else None


def traces_of_rows(rows: Iterable[dict]) -> list[ActivityTrace]:
    """Call rows back into trace messages (one per connection and SeqNumber, calls in order)."""
    return traces_of_columns(columns_of(rows))


def columns_of(rows: Iterable[dict]) -> dict[str, list]:
    """Call rows (dicts of CALL_COLUMNS) as columns (name -> values)."""
    rows = list(rows)
    return {name: [r[name] for r in rows] for name, _ in CALL_COLUMNS}


def traces_of_columns(cols: dict[str, list]) -> list[ActivityTrace]:
    """Columns of call rows (name -> values, as Arrow's `to_pydict` gives them) back into
    trace messages (one per connection and SeqNumber, calls in order); rows without a
    journey key are left out."""
    with paused_collector():
        return _traces_of_columns(cols)


#: The MQICall fields a calls/ row holds, in the order `_ROW_CALL` takes them.
_ROW_FIELDS = ("operation", "operation_date", "operation_time", "comp_code", "reason", "hobj",
               "object_name", "object_qmgr", "resolved_q_name", "resolved_q_mgr",
               "resolved_local_q_name", "resolved_local_q_mgr", "msg_id", "correl_id",
               "format", "msg_type", "msg_length", "get_options", "put_options", "open_options",
               "call_type", "high_res_time", "xmitq_msg_id", "xmitq_remote_q_name",
               "xmitq_remote_q_mgr")
_ROW_CALL = call_maker(*_ROW_FIELDS)
_CALL_INDEX = attrgetter("index")


def _traces_of_columns(cols: dict[str, list]) -> list[ActivityTrace]:
    # The rows in input order (zip, no indexing) grouped per trace message (queue manager,
    # connection, SeqNumber); then each message's calls made positionally, its Connection
    # from its first row, calls in call order (a stable sort, as before). Made message by
    # message, not row by row: a message's calls lie together in memory as reconstruct walks
    # them (made in row order, reconstruct ran 20% slower at 1M calls of the benchmark).
    groups: dict[tuple, list[MQICall]] = {}
    conns: dict[tuple, Connection] = {}
    sources: dict[tuple, str] = {}
    fromhex = bytes.fromhex
    make = _ROW_CALL
    rows = zip(*(cols[n] for n in (
        "journey_key", "queue_manager", "conn_key", "seq_number", "conn_id", "appl_name",
        "appl_type", "pid", "environment", "channel_name", "channel_type", "source",
        "call_index",
        "operation_id", "operation_date", "operation_time", "comp_code", "reason", "hobj",
        "object_name", "object_qmgr", "resolved_q_name", "resolved_q_mgr",
        "resolved_local_q_name", "resolved_local_q_mgr", "msg_id", "correl_id", "format",
        "msg_type", "msg_length", "get_options", "put_options", "open_options", "call_type",
        "high_res_time", "xmitq_msg_id", "xmitq_remote_q_name", "xmitq_remote_q_mgr")),
        strict=True)
    members: dict[tuple, list[tuple]] = {}
    for row in rows:
        if row[0] is None:
            continue
        gk = (row[1], row[2], row[3])
        found = members.get(gk)
        if found is None:
            members[gk] = [row]
        else:
            found.append(row)
    # calls made message by message (each message's calls close together in memory, as
    # reconstruct walks them)
    for gk, group in members.items():
        calls = groups[gk] = []
        for (_key, qmgr, conn_key, seq, conn_id, appl, appl_type, pid, env, channel, chltype,
             source, index, op, odate, otime, cc, reason, hobj, oname, oqmgr, rq, rqm, rlq,
             rlqm, m, c, fmt, msg_type, length, gopt, popt, oopt, ctype, hrt, x, xq,
             xqm) in group:
            if not calls:
                conn = conns[gk] = Connection(
                    qmgr=qmgr, conn_id=_b(conn_id) or b"", seq_number=seq,
                    appl_name=appl or "", appl_type=appl_type, pid=pid, environment=env,
                    channel_name=channel or "", channel_type=chltype)
                conn._key = (qmgr, conn_key)
                sources[gk] = source or ""
            calls.append(make(
                conn, index, op, odate or "", otime or "", cc, reason, hobj, oname or "",
                oqmgr or "", rq or "", rqm or "", rlq or "", rlqm or "",
                fromhex(m) if m else None, fromhex(c) if c else None, fmt, msg_type, length,
                gopt, popt, oopt, ctype, hrt, fromhex(x) if x else None, xq or "", xqm or ""))
        del group[:]
    traces = []
    for gk, calls in groups.items():
        if len(calls) > 1:
            calls.sort(key=_CALL_INDEX)
        traces.append(ActivityTrace(conns[gk], calls, sources[gk]))
    return traces


def journeys_of_columns(cols: dict[str, list], *, chains: bool = True) -> list[dict]:
    """`journeys_of_rows` for columns (name -> values). The keys whose calls form one chain
    are answered from the columns (`traceroute.journeys.chains`), the others by
    `reconstruct`; `chains=False`: every key by `reconstruct` (the reference: the same rows
    in the same order)."""
    with paused_collector():
        found = chain_journeys(cols) if chains else None
        if found is None:
            result = reconstruct(traces_of_columns(cols), sequences=False)
            return [journey_row(j) for j in result.journeys]
        merged = _merged(cols, found)
        return merged if merged is not None else journeys_of_columns(cols, chains=False)


def _merged(cols: dict[str, list], found: Chains) -> list[dict] | None:
    """The chains' rows and `reconstruct`'s of the other keys, in `reconstruct`'s order
    (puts by connection, SeqNumber and call; then failed puts; then messages whose put was
    not traced), replies linked by its rule; None when two puts share a place (a call index
    repeated in a trace message: only `reconstruct` knows their order)."""
    rank = found.conn_rank
    # per journey that began with a put: (its place, row, the put's queue manager, its
    # CorrelId hex or None, its MsgId hex): the chains', then reconstruct's
    fast: list[tuple] = found.chains
    slow: list[tuple] = []
    rest: list[tuple[dict, bool]] = []  # (row, a failed put's: no request of replies)
    if found.slow:
        picked = found.slow
        sub = {n: [v[i] for i in picked] for n, v in cols.items()}
        # a trace message's connection is its first row's in the whole (traces_of_columns),
        # which may be a chain's row, not one of these
        firsts = [found.traces[key][8] for key in zip(
            sub["queue_manager"], sub["conn_key"], sub["seq_number"], strict=True)]
        for n in _CONNECTION_COLUMNS:
            v = cols[n]
            sub[n] = [v[f] for f in firsts]
        traces = traces_of_columns(sub)
        traces.sort(key=lambda t: rank[t.conn.key])  # connections met as in the whole
        for j in reconstruct(traces, sequences=False).journeys:
            row = journey_row(j)
            first = j.steps[0] if j.steps else None
            if first is None or first.role != "put":
                rest.append((row, first is not None and first.role == "failed_put"))
                continue
            put = first.call
            conn = put.conn
            trace = found.traces.get((conn.key[0], conn.key[1], conn.seq_number))
            if trace is None or not 0 <= put.index < 1 << 32:
                return None
            correl = _hex(put.correl_id) if put.correl_id and any(put.correl_id) else None
            slow.append((trace[7] + put.index, row, conn.qmgr, correl, row["msg_id"]))
    _link_merged(fast, slow, rest)
    origins = fast + slow
    places = list(map(_FIRST, origins))
    if len(set(places)) != len(places):
        return None
    origins.sort(key=_FIRST)
    return [o[1] for o in origins] + [r[0] for r in rest]


_FIRST = itemgetter(0)
#: The columns traces_of_columns makes a trace message's Connection (and source) of.
_CONNECTION_COLUMNS = ("conn_id", "appl_name", "appl_type", "pid", "environment",
                       "channel_name", "channel_type", "source")


def _link_merged(fast: list[tuple], slow: list[tuple], rest: list[tuple[dict, bool]]
                 ) -> None:
    """`reconstruct`'s reply rule between the chains and the journeys it made (among its
    own it has linked them): a put whose CorrelId is the MsgId of another journey (failed
    puts aside), put as a REPLY or by the connection that consumed that message, is its
    reply. A chain's MsgId is its key's alone (one journey); the rows are read only for
    the MsgIds asked for (they lie scattered in memory)."""
    wanted = {o[3] for o in fast}
    wanted.update(o[3] for o in slow)
    wanted.discard(None)
    if not wanted:
        return
    in_fast: set[str] = set()
    in_slow: set[str] = set()
    consumed_by: set[tuple] = set()
    for o in fast:
        if o[4] in wanted:
            in_fast.add(o[4])
            if o[1]["verdict"] == "consumed":  # its last step is a get
                consumed_by.add((o[1]["last_queue_manager"], o[1]["consumer_conn"], o[4]))
    for row, failed in (*((o[1], False) for o in slow), *rest):
        if not failed and row["msg_id"] in wanted:
            in_slow.add(row["msg_id"])
            if row["verdict"] == "consumed":
                consumed_by.add((row["last_queue_manager"], row["consumer_conn"],
                                 row["msg_id"]))
    for origins, requests in ((fast, in_fast | in_slow), (slow, in_fast)):
        for _, row, qmgr, correl, msg_id in origins:
            if correl is None or correl == msg_id or correl not in requests:
                continue
            if row["origin_msg_type"] == mqc.MQMT_REPLY or (
                    (qmgr, row["origin_conn"], correl) in consumed_by):
                row["reply_to"] = correl


def journey_row(j: Journey) -> dict:
    """A journey as its journeys/ row (plus the origin/consumer columns replies are linked
    by; `link_reply_rows` fills reply_to)."""
    stamps = [s.call.high_res_time for s in j.steps]
    if stamps and all(stamps):
        first_time = iso_micros(min(stamps))  # type: ignore[type-var]
        last_time = iso_micros(max(stamps))  # type: ignore[type-var]
    else:
        times = j.times
        first_time = iso(min(times)) if times else None
        last_time = iso(max(times)) if times else None
    origin = j.steps[0].call if j.steps and j.steps[0].role == "put" else None
    last = j.steps[-1] if j.steps else None
    consumer = last.call.conn.key[1] if last is not None and last.role == "get" else None
    return {"msg_id": j.msg_id_hex, "verdict": str(j.verdict),
            "last_queue_manager": j.last_location.queue_manager,
            "last_queue": j.last_location.queue, "last_channel": j.last_location.channel,
            "hops": j.hops, "first_time": first_time, "last_time": last_time,
            "applications": ",".join(j.applications), "steps": len(j.steps),
            "reply_to": _hex(j.reply_to), "notes": "; ".join(j.notes) or None,
            "origin_conn": origin.conn.key[1] if origin else None,
            "origin_correl_id": _hex(origin.correl_id) if origin and origin.correl_id
            and origin.correl_id.strip(b"\x00") else None,
            "origin_msg_type": origin.msg_type if origin else None,
            "consumer_conn": consumer}


def journeys_of_rows(rows: Iterable[dict]) -> list[dict]:
    """Journey rows of the call rows of some journey keys (every call of a key present)."""
    return journeys_of_columns(columns_of(rows))


def link_reply_rows(rows: list[dict]) -> None:
    """Set reply_to where the origin put's CorrelId is another journey's MsgId and it is a
    REPLY or was put by the connection that consumed that message (as `reconstruct` does)."""
    with paused_collector():
        link_replies(rows, {r["msg_id"]: (r["verdict"], r["consumer_conn"]) for r in rows})


def link_replies(rows: Iterable[dict], requests: Mapping[str, tuple]) -> int:
    """`link_reply_rows`' rule for rows whose requests are given apart, as msg_id ->
    (verdict, consumer_conn) (a bucket of a streaming join); the rows whose reply_to changed.

    A row whose CorrelId is its own MsgId is no reply (Spark's window applies the same)."""
    n = 0
    for r in rows:
        correl = r["origin_correl_id"]
        if not correl or correl == r["msg_id"]:
            continue
        request = requests.get(correl)
        if request is None:
            continue
        if r["origin_msg_type"] == mqc.MQMT_REPLY or (
                request[0] == "consumed" and request[1] == r["origin_conn"]):
            n += r["reply_to"] != correl
            r["reply_to"] = correl
    return n
