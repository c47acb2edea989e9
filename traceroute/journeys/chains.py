"""Journey rows of the common chain straight from call columns: no typed calls, no walk.

Most messages' calls form one chain: an application's put, then per channel hop the sending
MCA's get (by XmitqMsgId) and the receiving MCA's put (same channel name, another queue
manager), and at most one consumer's get. For such a journey key `reconstruct`'s walk has
one answer, which this module computes from the column values alone (`chain_journeys`).
Every key it does not recognise — failed calls, browses, callbacks, shared MsgIds, records
missing or left over, several candidates, clocks without HighResTime or running backwards,
anything it has not met — goes to `reconstruct`, the reference, with its rows
(`Chains.slow`). When a row could touch another key's walk (an MQOPEN handle, an id that is
not its journey key, a key that is not upper-case hex) or has no place in `reconstruct`'s
order (a call index or SeqNumber missing), nothing is taken here (None).
`traceroute.journeys.rows.journeys_of_columns` merges both in `reconstruct`'s order and links
replies by its rule; tests/traceroute/journeys/test_journeys_chains.py holds it equal to
`reconstruct` alone. Its twin over typed calls is `reconstruct._chain_journey`: a change to
the walk must be made in all three.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from pcf import mqc
from traceroute.journeys.calls import is_mca, iso_micros

_PUTS, _GETS = (mqc.MQXF_PUT, mqc.MQXF_PUT1), (mqc.MQXF_GET, mqc.MQXF_CALLBACK)
_CALLBACK = mqc.MQXF_CALLBACK
_OPEN, _FAILED = mqc.MQXF_OPEN, mqc.MQCC_FAILED
_BROWSE = (mqc.MQGMO_BROWSE_FIRST | mqc.MQGMO_BROWSE_NEXT
           | mqc.MQGMO_BROWSE_MSG_UNDER_CURSOR)
_HEX = "0123456789ABCDEF"


@dataclass(slots=True)
class Chains:
    """The journeys of the common chain, and the rows left for `reconstruct`."""

    #: per journey: (its put's place in `reconstruct`'s order: its trace message's
    #: (`traces`) + its call index, its row, the put's queue manager, its CorrelId as hex
    #: or None when none or all zero: what replies are linked by, its MsgId as hex)
    chains: list[tuple[int, dict, str, str | None, str]] = field(default_factory=list)
    slow: list[int] = field(default_factory=list)   # row numbers, ascending
    #: (queue manager, connection key) -> rank: the order `reconstruct` meets connections in
    conn_rank: dict[tuple, int] = field(default_factory=dict)
    #: (queue manager, connection key, SeqNumber) -> the trace message's values, its
    #: place (shifted by 32 bits), then its first row's number (whose connection columns
    #: are the message's, as `traces_of_columns` takes them)
    traces: dict[tuple, list] = field(default_factory=dict)


class _Global(Exception):
    """A row that may change another key's journey: leave every key to `reconstruct`."""


def chain_journeys(cols: dict[str, list]) -> Chains | None:
    """The journeys of the keys whose calls form one chain, and the rows of the others;
    None when only `reconstruct` may answer (see the module's text)."""
    try:
        return _chains(cols)
    except _Global:
        return None


def _traces(cols: dict[str, list], groups: dict[str, list[int]], conn_rank: dict,
            traces: dict[tuple, list]) -> list:
    """Per row of a journey key: its trace message's values [queue manager, connection key,
    SeqNumber, connection's rank, is an MCA, ApplName, ChannelName, place, first row] (those of the
    message's first row, as `traces_of_columns` takes them; place: `_place`); groups
    filled by key, traces by (queue manager, connection key, SeqNumber)."""
    info: dict[tuple, list] = traces
    per_row: list = [None] * len(cols["journey_key"])
    appl, env, chl, chltype = (cols["appl_name"], cols["environment"],
                               cols["channel_name"], cols["channel_type"])
    conn_ids = cols["conn_id"]
    i = -1
    for key, qm, ck, seq in zip(cols["journey_key"], cols["queue_manager"], cols["conn_key"],
                                cols["seq_number"], strict=True):
        i += 1
        if key is None:
            continue
        tk = (qm, ck, seq)
        t = info.get(tk)
        if t is None:
            if seq.__class__ is not int:
                raise _Global  # sorted by reconstruct: no order to place it in here
            if conn_ids[i]:
                bytes.fromhex(conn_ids[i])  # what traces_of_columns reads (and may refuse)
            ckey = (qm, ck)
            rank = conn_rank.get(ckey)
            if rank is None:
                rank = conn_rank[ckey] = len(conn_rank)
            t = info[tk] = [qm, ck, seq, rank, is_mca(env[i], chltype[i]), appl[i] or "",
                            chl[i] or None, 0, i]
        per_row[i] = t
        found = groups.get(key)
        if found is None:
            groups[key] = [i]
        else:
            found.append(i)
    return per_row


def _chains(cols: dict[str, list]) -> Chains:
    out = Chains()
    if None in cols["call_index"]:
        raise _Global  # sorted by reconstruct: no order to place such a call in here
    groups: dict[str, list[int]] = {}
    per_row = _traces(cols, groups, out.conn_rank, out.traces)
    _place(out.traces)
    ops, ccs, mids, xids = (cols["operation_id"], cols["comp_code"], cols["msg_id"],
                            cols["xmitq_msg_id"])
    hobjs, gopts, correls = cols["hobj"], cols["get_options"], cols["correl_id"]
    names = (cols["resolved_local_q_name"], cols["resolved_q_name"], cols["resolved_q_mgr"],
             cols["object_name"], cols["format"], cols["high_res_time"], cols["correl_id"],
             cols["msg_type"], cols["call_index"])
    fromhex = bytes.fromhex
    chains, slow = out.chains, out.slow
    for key, members in groups.items():
        canonical = bool(key) and not len(key) % 2 and not key.strip(_HEX)
        simple = canonical
        origin = -1
        mgets: list[int] = []
        mputs: list[int] = []
        gets: list[int] = []
        for i in members:
            op = ops[i]
            if op in _PUTS:
                ident = mids[i]
                if not ident:
                    simple = False  # untraceable, or a failed put filed nowhere
                    continue
                if ccs[i] == _FAILED:
                    simple = False  # a failed put: a journey of its own, or an MCA's try
                    if not per_row[i][4]:
                        continue
                elif per_row[i][4]:
                    mputs.append(i)
                elif origin >= 0:
                    simple = False  # the same MsgId put again
                else:
                    origin = i
                other = xids[i]
            elif op in _GETS:
                if ccs[i] == _FAILED:
                    simple = False  # filed nowhere
                    continue
                if per_row[i][4]:
                    other = mids[i]
                    ident = xids[i] or other
                    mgets.append(i)
                else:
                    ident, other = mids[i], xids[i]
                    gets.append(i)
                if not ident:
                    simple = False  # untraceable
                    continue
                if op == _CALLBACK or (gopts[i] or 0) & _BROWSE:
                    simple = False
            else:
                if op == _OPEN and hobjs[i] is not None and ccs[i] != _FAILED:
                    raise _Global  # a handle: names for other calls of the connection
                simple = False
                continue
            if ident != key or not canonical:
                raise _Global  # filed under another key's id by reconstruct
            # the other hex values reconstruct's reading takes (and may refuse)
            if other and other != ident:
                fromhex(other)
            text = correls[i]
            if text:
                fromhex(text)
        if simple and origin >= 0 and len(gets) <= 1:
            chain = _walk(names, key, origin, mgets, mputs, gets, per_row)
            if chain is not None:
                chains.append(chain)
                continue
        slow += members
    slow.sort()
    return out


_RANK_SEQ = itemgetter(3, 2)


def _place(traces: dict[tuple, list]) -> None:
    """Each trace message's place in `reconstruct`'s order (connections as met, then by
    SeqNumber), shifted so that a call index below 2**32 adds its own: one int orders
    journeys as `reconstruct` lists them."""
    for n, t in enumerate(sorted(traces.values(), key=_RANK_SEQ)):
        t[7] = n << 32


def _queue(names: tuple, i: int, qm: str) -> str | None:
    """`_Index.queue` of a row (no MQOPEN handles among the rows: `_chains` checked)."""
    q = names[0][i]
    if not q:
        rq, rqm = names[1][i], names[2][i]
        q = "" if rq and rqm and rqm != qm else (rq or names[3][i])
    return q or None


def _walk(names: tuple, key: str, origin: int, mgets: list[int], mputs: list[int],
          gets: list[int], per_row: list) -> tuple | None:
    """`reconstruct`'s walk from the put, for the moves it makes on one chain, and the row
    `journey_row` makes of it; None at any other move (the key goes to `reconstruct`)."""
    rqms, fmts, hrts = names[2], names[4], names[5]
    first = last = hrts[origin]
    if not first:
        return None  # a time not in microseconds: journey_row's other way
    steps = 1
    hops = 0
    consumer = None
    p = origin
    while True:
        qm = per_row[p][0]
        queue = _queue(names, p, qm)
        if per_row[p][4] and (fmts[p] or "").strip() == "MQDEAD":
            verdict, channel = "dead_lettered", None
            break
        rqm = rqms[p]
        if not rqm or rqm == qm:  # on a local queue
            channel = None
            if not gets:
                verdict = "on_queue"
                break
            g = gets.pop()
            gq = _queue(names, g, per_row[g][0])
            if per_row[g][0] != qm or not (not queue or gq is None or gq == queue):
                return None
            verdict, queue, consumer, when = "consumed", gq or queue, g, hrts[g]
            steps += 1
            if not when:
                return None
            first, last = min(first, when), max(last, when)
            break
        for get in mgets:  # on a transmission queue: the sending MCA's get
            if per_row[get][0] == qm:
                break
        else:
            verdict, channel = "on_xmitq", None
            break
        mgets.remove(get)
        steps += 1
        channel = per_row[get][6]
        h1 = hrts[get]
        if not h1:
            return None
        first, last = min(first, h1), max(last, h1)
        found = -1
        for x in mputs:
            if per_row[x][0] != qm and (not channel or per_row[x][6] == channel):
                if found >= 0:
                    return None  # a choice by time: the walk's
                found = x
        if found < 0:
            verdict, queue = "in_transit", _queue(names, get, qm)
            break
        for g in mgets:
            if per_row[g][0] == qm:
                return None  # the message sent again: the walk's
        h2 = hrts[found]
        if not h2 or h2 < h1:
            return None  # maybe a clock-skew note
        mputs.remove(found)
        first, last = min(first, h2), max(last, h2)
        steps += 1
        hops += 1
        p = found
    if mgets or mputs or gets:
        return None  # records left over: a hole, or another copy
    put = per_row[origin]
    apps = put[5]
    if consumer is not None:
        name = per_row[consumer][5]
        if name and name != apps:
            apps = f"{apps},{name}" if apps else name
    text = names[6][origin]
    correl = None
    if text:
        raw = bytes.fromhex(text)
        if raw.strip(b"\x00"):
            correl = raw.hex().upper()
    row = {"msg_id": key, "verdict": verdict, "last_queue_manager": qm, "last_queue": queue,
           "last_channel": channel, "hops": hops, "first_time": iso_micros(first),
           "last_time": iso_micros(last), "applications": apps, "steps": steps,
           "reply_to": None, "notes": None, "origin_conn": put[1], "origin_correl_id": correl,
           "origin_msg_type": names[7][origin],
           "consumer_conn": per_row[consumer][1] if consumer is not None else None}
    index = names[8][origin]
    if not 0 <= index < 1 << 32:
        return None  # no place in one int: reconstruct's order, by the merge's way
    return put[7] + index, row, put[0], correl, key
