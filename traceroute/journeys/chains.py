"""Journey rows of the common chain straight from call columns: no typed calls, no walk.

Most messages' calls form one chain: an application's put, then per channel hop the sending
MCA's get (by XmitqMsgId) and the receiving MCA's put (same channel name, another queue
manager), and at most one consumer's get. For such a journey key `reconstruct`'s walk has
one answer, which this module computes from the column values alone (`chain_journeys`).
Every key it does not recognise — failed calls, browses, callbacks, shared MsgIds, records
missing or left over, several candidates, clocks without HighResTime or running backwards,
anything it has not met — goes to `reconstruct`, the reference, with its rows
(`Chains.slow`). When a row could touch another key's walk (an MQOPEN handle, an id that is
not its journey key, a key that is not upper-case hex) nothing is taken here (None).
`traceroute.journeys.rows.journeys_of_columns` merges both in `reconstruct`'s order and links
replies by its rule; the tests hold it equal to `reconstruct` alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pcf import mqc
from traceroute.journeys.calls import is_mca, iso_micros

_PUT, _PUT1, _GET, _CALLBACK = mqc.MQXF_PUT, mqc.MQXF_PUT1, mqc.MQXF_GET, mqc.MQXF_CALLBACK
_OPEN, _FAILED = mqc.MQXF_OPEN, mqc.MQCC_FAILED
_BROWSE = (mqc.MQGMO_BROWSE_FIRST | mqc.MQGMO_BROWSE_NEXT
           | mqc.MQGMO_BROWSE_MSG_UNDER_CURSOR)
_HEX = "0123456789ABCDEF"


@dataclass(slots=True)
class Chain:
    """A journey computed here: its row, where `reconstruct` would place it, and what
    replies are linked by."""

    order: tuple[int, int, int]     # (connection's rank, SeqNumber, call index) of its put
    row: dict
    origin_qmgr: str                # the put's queue manager (the connection's key's half)
    correl: str | None              # the put's CorrelId (hex), None when none or all zero


@dataclass(slots=True)
class Chains:
    """The journeys of the common chain, and the rows left for `reconstruct`."""

    chains: list[Chain] = field(default_factory=list)
    slow: list[int] = field(default_factory=list)   # row numbers, ascending
    #: (queue manager, connection key) -> rank: the order `reconstruct` meets connections in
    conn_rank: dict[tuple, int] = field(default_factory=dict)


class _Global(Exception):
    """A row that may change another key's journey: leave every key to `reconstruct`."""


def chain_journeys(cols: dict[str, list]) -> Chains | None:
    """The journeys of the keys whose calls form one chain, and the rows of the others;
    None when only `reconstruct` may answer (see the module's text)."""
    try:
        return _chains(cols)
    except _Global:
        return None


def _traces(cols: dict[str, list], groups: dict[str, list[int]], conn_rank: dict
            ) -> list:
    """Per row of a journey key: its trace message's connection values (those of the
    message's first row, as `traces_of_columns` takes them); groups filled by key."""
    info: dict[tuple, tuple] = {}
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
            t = info[tk] = (qm, ck, seq, rank, is_mca(env[i], chltype[i]), appl[i] or "",
                            chl[i] or None)
        per_row[i] = t
        found = groups.get(key)
        if found is None:
            groups[key] = [i]
        else:
            found.append(i)
    return per_row


def _chains(cols: dict[str, list]) -> Chains:
    out = Chains()
    groups: dict[str, list[int]] = {}
    per_row = _traces(cols, groups, out.conn_rank)
    ops, ccs, mids, xids = (cols["operation_id"], cols["comp_code"], cols["msg_id"],
                            cols["xmitq_msg_id"])
    hobjs, gopts, hrts = cols["hobj"], cols["get_options"], cols["high_res_time"]
    cidx, correls, fromhex = cols["call_index"], cols["correl_id"], bytes.fromhex
    chains, slow = out.chains, out.slow
    for key, members in groups.items():
        canonical = bool(key) and not len(key) % 2 and not key.strip(_HEX)
        simple = canonical
        origin = -1
        mgets: list[int] = []
        mputs: list[int] = []
        gets: list[int] = []
        for i in members:
            op, mca = ops[i], per_row[i][4]
            if cidx[i].__class__ is not int:
                raise _Global  # sorted by reconstruct: no order to place it in here
            text = correls[i]
            if text:
                fromhex(text)  # what traces_of_columns reads (and may refuse)
            if op in (_PUT, _PUT1):
                ident = mids[i]
                if ccs[i] == _FAILED:
                    simple = False  # a failed put: a journey of its own (or an MCA's try)
                    if not mca or not ident:
                        continue
                elif not ident:
                    simple = False  # untraceable
                    continue
                elif mca:
                    mputs.append(i)
                elif origin >= 0:
                    simple = False  # the same MsgId put again
                else:
                    origin = i
            elif op in (_GET, _CALLBACK):
                if ccs[i] == _FAILED:
                    simple = False
                    continue
                ident = (xids[i] or mids[i]) if mca else mids[i]
                if not ident:
                    simple = False
                    continue
                if mca:
                    mgets.append(i)
                else:
                    gets.append(i)
                if op == _CALLBACK or (gopts[i] or 0) & _BROWSE:
                    simple = False
            else:
                if op == _OPEN and hobjs[i] is not None and ccs[i] != _FAILED:
                    raise _Global  # a handle: names for other calls of the connection
                simple = False
                continue
            if ident != key or not canonical:
                raise _Global  # filed under another key's id by reconstruct
            for text in (mids[i], xids[i]):
                if text and text != ident:
                    fromhex(text)
        if simple and origin >= 0 and len(gets) <= 1:
            chain = _walk(cols, key, origin, mgets, mputs, gets, per_row, hrts)
            if chain is not None:
                chains.append(chain)
                continue
        slow += members
    slow.sort()
    return out


def _queue(cols: dict[str, list], i: int, qm: str) -> str | None:
    """`_Index.queue` of a row (no MQOPEN handles among the rows: `_chains` checked)."""
    q = cols["resolved_local_q_name"][i]
    if not q:
        rq, rqm = cols["resolved_q_name"][i], cols["resolved_q_mgr"][i]
        q = "" if rq and rqm and rqm != qm else (rq or cols["object_name"][i])
    return q or None


def _walk(cols: dict[str, list], key: str, origin: int, mgets: list[int], mputs: list[int],
          gets: list[int], per_row: list, hrts: list) -> Chain | None:
    """`reconstruct`'s walk from the put, for the moves it makes on one chain; None at any
    other (the key goes to `reconstruct`)."""
    rqms, fmts = cols["resolved_q_mgr"], cols["format"]
    stamps = [hrts[origin]]
    hops = 0
    consumer = None
    p = origin
    while True:
        qm = per_row[p][0]
        queue = _queue(cols, p, qm)
        if per_row[p][4] and (fmts[p] or "").strip() == "MQDEAD":
            end = ("dead_lettered", qm, queue, None)
            break
        rqm = rqms[p]
        if not (rqm and rqm != qm):
            if not gets:
                end = ("on_queue", qm, queue, None)
                break
            g = gets[0]
            gq = _queue(cols, g, per_row[g][0])
            if per_row[g][0] != qm or not (not queue or gq is None or gq == queue):
                return None
            gets.clear()
            stamps.append(hrts[g])
            consumer = g
            end = ("consumed", qm, gq or queue, None)
            break
        get = next((g for g in mgets if per_row[g][0] == qm), -1)
        if get < 0:
            end = ("on_xmitq", qm, queue, None)
            break
        mgets.remove(get)
        stamps.append(hrts[get])
        channel = per_row[get][6]
        candidates = [x for x in mputs if per_row[x][0] != qm
                      and (not channel or per_row[x][6] == channel)]
        if not candidates:
            end = ("in_transit", qm, _queue(cols, get, qm), channel)
            break
        if len(candidates) > 1 or any(per_row[g][0] == qm for g in mgets):
            return None  # a choice by time, or the message sent again: the walk's
        p = candidates[0]
        h1, h2 = hrts[get], hrts[p]
        if not (h1 and h2 and h2 >= h1):
            return None  # maybe a clock-skew note
        mputs.remove(p)
        stamps.append(h2)
        hops += 1
    if mgets or mputs or gets or not all(stamps):
        return None  # records left over (a hole, or another copy), or a time not in micros
    return _row(cols, key, origin, consumer, end, hops, len(stamps), stamps, per_row)


def _row(cols: dict[str, list], key: str, origin: int, consumer: int | None, end: tuple,
         hops: int, steps: int, stamps: list[int], per_row: list) -> Chain:
    put = per_row[origin]
    apps = [put[5]] if put[5] else []
    if consumer is not None:
        name = per_row[consumer][5]
        if name and name not in apps:
            apps.append(name)
    text = cols["correl_id"][origin]
    correl = None
    if text:
        raw = bytes.fromhex(text)
        if raw.strip(b"\x00"):
            correl = raw.hex().upper()
    verdict, qm, queue, channel = end
    row = {"msg_id": key, "verdict": verdict, "last_queue_manager": qm, "last_queue": queue,
           "last_channel": channel, "hops": hops, "first_time": iso_micros(min(stamps)),
           "last_time": iso_micros(max(stamps)), "applications": ",".join(apps),
           "steps": steps, "reply_to": None, "notes": None, "origin_conn": put[1],
           "origin_correl_id": correl, "origin_msg_type": cols["msg_type"][origin],
           "consumer_conn": per_row[consumer][1] if consumer is not None else None}
    return Chain((put[3], put[2], cols["call_index"][origin]), row, put[0], correl)
