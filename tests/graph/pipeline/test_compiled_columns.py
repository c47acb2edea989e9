"""The compiled operation rows (graph/pipeline/_ccolumns.c) are classify's Python rows.

classify_batches with the compiled path and without it (`compiled._C = None`: every message
through `classify_message`, the reference) must give the same Arrow table, row for row and
value for value, on the corpus, on a mix of every kind of message the job reads, and on
hypothesis-made messages built with struct from the spec: both byte orders, with and without
an MQEPH or an MQMD (ASCII/EBCDIC, versions 1/2, odd Formats and Encodings), strings in
several CCSIDs (invalid UTF-8, Latin-1, padding), dates and times real and not (leap days,
other scripts' digits), repeated and mistyped members, counters past 32 bits, other structure
types, truncations and flipped bytes.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.pipeline import classify, compiled
from graph.pipeline.inputs import RAW_COLUMNS
from graph.pipeline.schema import arrow_schema, row_batch
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support import pcfbytes as b

pa = pytest.importorskip("pyarrow")
pytestmark = pytest.mark.skipif(not compiled.available(),
                                reason=f"compiled columns: {compiled.STATUS}")


def _classified(rows: list[tuple], *, use_compiled: bool, batch: int = 64):
    schema = arrow_schema(RAW_COLUMNS)
    batches = [row_batch(schema, rows[i:i + batch]) for i in range(0, len(rows), batch)]
    saved = compiled._C
    try:
        if not use_compiled:
            compiled._C = None
        out = list(classify.classify_batches(iter(batches)))
    finally:
        compiled._C = saved
    return pa.Table.from_batches(out, schema=arrow_schema(classify.CLASSIFIED_COLUMNS))


def _assert_same(rows: list[tuple]) -> None:
    fast = _classified(rows, use_compiled=True)
    slow = _classified(rows, use_compiled=False)
    assert fast.schema == slow.schema
    for name in fast.column_names:
        assert fast.column(name).to_pylist() == slow.column(name).to_pylist(), name


def _taken(rows: list[tuple]) -> int:
    """How many of the messages the compiled path takes."""
    table = pa.Table.from_batches([row_batch(arrow_schema(RAW_COLUMNS), rows)])
    _made, rest = compiled.operation_arrays(table.column("md"), table.column("data"),
                                            table.column("error"))
    return len(rows) - len(rest)


def test_corpus_rows_are_the_python_rows_and_all_compiled():
    from traceroute.sim.corpus import corpus, is_report

    rows = [("src", i, c.md.pack(), c.data, None)
            for i, c in enumerate(corpus(40, seed=1)) if is_report(c.md)]
    _assert_same(rows)
    assert _taken(rows) == len(rows)


def test_every_kind_of_message_is_classified_as_before():
    """Statistics, events, activity trace, rejects and reports together: only the reports
    are the compiled path's, the rest keep their rows and their order."""
    from tests.graph.pipeline.test_classify import _messages

    rows = _messages()
    rows += [("bad", 0, None, None, "unreadable"), ("bad", 1, b"MD  ", b"x", None),
             ("bad", 2, None, b"", None)]
    _assert_same(rows)
    assert 0 < _taken(rows) < len(rows)


# --- messages from the spec ---------------------------------------------------------------

_PLAIN = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/%", max_size=12)
_TEXT = st.one_of(
    _PLAIN.map(str.encode),
    st.builds(lambda t, pad: t.encode() + pad, _PLAIN,
              st.sampled_from([b"", b"  ", b"\0\0", b" \0 "])),
    st.sampled_from(["Zürich", "名前", "Ωmega", "é"]).map(lambda t: t.encode("utf-8")),
    st.sampled_from([b"caf\xe9", b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\xf4\x90\x80\x80",
                     b"\xe0\x80\x80", b"A\x00B", b"\xc0\xaf"]),
    st.binary(max_size=10))
_DATE = st.one_of(
    st.dates().map(lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d}".encode()),
    st.sampled_from([b"2024-02-29", b"2026-02-29", b"2026-13-01", b"0000-01-01", b"2026-1-1",
                     b"2026/01/01", b"", b"  ", "٢٠٢٦-01-01".encode(), b"2026-04-31",
                     b"1900-02-29", b"2000-02-29", b"2026-01-01 "]))
_TIME = st.one_of(
    st.times().map(lambda t: t.strftime("%H:%M:%S").encode()),
    st.sampled_from([b"10.00.00", b"23:59:60", b"24:00:00", b"10:00:00.123456",
                     b"10:00:00.1234567", b"1:00:00", b"10:00:00.", b"10:60:00", b"",
                     "1٢:00:00".encode(), b"10:00:00:12", b"10.00.00.5", b"20:00"]))
_CCSID = st.sampled_from([0, 0, 819, 1208, 367, 37, 500, 1200, 65535])
_TEXT_IDS = [mqc.MQCA_Q_MGR_NAME, mqc.MQCA_Q_NAME, mqc.MQCACF_RESOLVED_Q_NAME,
             mqc.MQCA_REMOTE_Q_NAME, mqc.MQCA_REMOTE_Q_MGR_NAME, mqc.MQCA_TOPIC_STRING,
             mqc.MQCACH_CHANNEL_NAME, mqc.MQCACH_XMIT_Q_NAME]
_INT_IDS = [mqc.MQIACF_OPERATION_TYPE, mqc.MQIACH_CHANNEL_TYPE, mqc.MQIACF_FEEDBACK]


def _strategies(order: str):
    def cfst(pid, text, ccsid):
        return b.cfst(pid, text, ccsid, order=order)

    def cfin(pid, value):
        return b.cfin(pid, value, order=order)

    def cfin64(pid, value):
        return b.cfin64(pid, value, order=order)

    def cfbs(pid, value):
        return b.cfbs(pid, value, order=order)

    def cfgr(pid, members):
        return b.cfgr(pid, members, order=order)

    ints = st.integers(-(2 ** 31), 2 ** 31 - 1)
    odd = st.one_of(  # structures the rows never read
        st.builds(lambda v: b.cfil(4321, v, order=order), st.lists(ints, max_size=3)),
        st.builds(lambda v, c: b.cfsl(4322, v, 8, c, order=order),
                  st.lists(_PLAIN.map(str.encode), max_size=3), _CCSID),
        st.builds(lambda v: struct.pack(order + "5i", 13, 20, 4323, 1, v), ints),  # MQCFIF
        st.builds(lambda v: cfst(4324, v, 1208), _TEXT))
    text_member = st.builds(cfst, st.sampled_from(_TEXT_IDS), _TEXT, _CCSID)
    wrong_type = st.one_of(
        st.builds(cfin, st.sampled_from([*_TEXT_IDS, mqc.MQCACF_OPERATION_DATE]), ints),
        st.builds(cfin64, st.sampled_from(_INT_IDS), ints),
        st.builds(cfst, st.sampled_from(_INT_IDS), _TEXT, _CCSID))
    date = st.builds(cfst, st.just(mqc.MQCACF_OPERATION_DATE), _DATE, _CCSID)
    time = st.builds(cfst, st.just(mqc.MQCACF_OPERATION_TIME), _TIME, _CCSID)
    op_type = st.builds(cfin, st.just(mqc.MQIACF_OPERATION_TYPE),
                        st.one_of(st.integers(0, 13), ints))
    other_int = st.builds(cfin, st.sampled_from(_INT_IDS[1:]), st.integers(-5, 3000))
    msg_id = st.one_of(
        st.builds(cfbs, st.just(mqc.MQBACF_MSG_ID),
                  st.one_of(st.just(bytes(24)), st.binary(min_size=24, max_size=24),
                            st.binary(max_size=30))),
        st.builds(cfst, st.just(mqc.MQBACF_MSG_ID), _TEXT, _CCSID),
        st.builds(cfbs, st.just(mqc.MQBACF_CORREL_ID), st.binary(min_size=24, max_size=24)))
    md_group = st.builds(cfgr, st.sampled_from([mqc.MQGACF_MQMD, mqc.MQGACF_EMBEDDED_MQMD]),
                         st.lists(msg_id, max_size=3))
    message = st.builds(cfgr, st.just(mqc.MQGACF_MESSAGE), st.lists(st.one_of(
        md_group, md_group, st.builds(cfin, st.sampled_from([mqc.MQGACF_MQMD,
                                                              mqc.MQIACF_MSG_LENGTH]), ints)),
        max_size=3))
    operation = st.builds(cfgr, st.just(mqc.MQGACF_OPERATION), st.lists(st.one_of(
        text_member, text_member, date, time, op_type, other_int, message, wrong_type, odd),
        max_size=9))
    counter = st.one_of(
        st.builds(cfin, st.sampled_from([mqc.MQIACF_RECORDED_ACTIVITIES,
                                         mqc.MQIACF_UNRECORDED_ACTIVITIES,
                                         mqc.MQIACF_DISCONTINUITY_COUNT]), st.integers(-2, 9)),
        st.builds(cfin64, st.sampled_from([mqc.MQIACF_RECORDED_ACTIVITIES,
                                           mqc.MQIACF_UNRECORDED_ACTIVITIES,
                                           mqc.MQIACF_DISCONTINUITY_COUNT]),
                  st.one_of(st.integers(0, 9), st.integers(-(2 ** 63), 2 ** 63 - 1))),
        st.builds(cfst, st.just(mqc.MQIACF_RECORDED_ACTIVITIES), _TEXT, _CCSID))
    trace_route = st.builds(cfgr, st.just(mqc.MQGACF_TRACE_ROUTE),
                            st.lists(counter, max_size=5))
    activity = st.builds(cfgr, st.just(mqc.MQGACF_ACTIVITY), st.lists(st.one_of(
        operation, operation, trace_route,
        st.builds(cfst, st.sampled_from([mqc.MQCACF_APPL_NAME, mqc.MQCACF_ACTIVITY_DESC]),
                  _TEXT, _CCSID),
        st.builds(cfin, st.sampled_from([mqc.MQIA_APPL_TYPE, mqc.MQCACF_APPL_NAME]), ints),
        st.builds(cfgr, st.just(mqc.MQGACF_OPERATION), st.just([])), odd), max_size=6))
    top = st.lists(st.one_of(activity, activity, trace_route, odd, text_member), max_size=4)
    return top


def _eph(body: bytes, count: int, typ: int, command: int, order: str, ccsid: int,
         ebcdic: bool) -> bytes:
    """MQEPH (StrucId, Version 1, StrucLength, Encoding, CodedCharSetId, Format, Flags) with
    its MQCFH, then the parameters."""
    length = 68 + len(body)
    head = (b"\xc5\xd7\xc8\x40" if ebcdic else b"EPH ") + struct.pack(
        order + "4i", 1, length, 546, ccsid) + b"MQADMIN " + struct.pack(order + "i", 0)
    return head + b.cfh(count, typ=typ, command=command, order=order) + body


@st.composite
def _message(draw):
    order = draw(st.sampled_from("<>"))
    params = draw(_strategies(order))
    typ, command = draw(st.sampled_from(
        [(b.MQCFT_REPORT, b.MQCMD_ACTIVITY_MSG)] * 4 + [(b.MQCFT_TRACE_ROUTE,
                                                          b.MQCMD_TRACE_ROUTE)] * 2
        + [(b.MQCFT_REPORT, b.MQCMD_TRACE_ROUTE), (21, 164), (7, 44)]))
    ccsid = draw(st.sampled_from([0, 819, 1208, 1208, 367, 500]))
    body = b"".join(params)
    eph = draw(st.integers(0, 3))
    if eph == 0:
        data = _eph(body, len(params), typ, command, order, ccsid, draw(st.integers(0, 9)) == 0)
    else:
        data = b.cfh(len(params), typ=typ, command=command, order=order) + body
    data += draw(st.sampled_from([b"", b"", b"user data"])) if eph else b""
    fate = draw(st.integers(0, 19))
    if fate == 0 and data:
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif fate == 1 and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    md = None
    kind = draw(st.integers(0, 6))
    if kind:
        encoding = {"<": 546, ">": 273}[order] if kind != 6 else draw(st.sampled_from(
            [0, 785, 546, 273]))
        fmt = ("MQHEPCF" if eph == 0 else draw(st.sampled_from(["MQADMIN", "MQPCF", "MQEVENT"]))) \
            if kind != 5 else draw(st.sampled_from(["MQSTR", "MQDEAD", "MQHEPCF", ""]))
        value = MQMD(version=draw(st.sampled_from([1, 2])),
                     msg_type=draw(st.sampled_from([mqc.MQMT_REPLY, mqc.MQMT_REPORT, 8])),
                     msg_id=draw(st.binary(min_size=24, max_size=24)),
                     correl_id=draw(st.binary(min_size=24, max_size=24)), format=fmt,
                     encoding=encoding, coded_char_set_id=ccsid)
        md = value.pack(encoding=draw(st.sampled_from([546, 273])),
                        ccsid=draw(st.sampled_from([819, 819, 819, 500])))
        if draw(st.integers(0, 14)) == 0:
            md = md[:draw(st.integers(0, len(md) - 1))]
    return md, data


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_message(), min_size=1, max_size=5))
def test_spec_built_messages_give_the_python_rows(messages):
    rows = [(f"s{i % 3}", i, md, data, None) for i, (md, data) in enumerate(messages)]
    _assert_same(rows)


def test_well_formed_spec_messages_are_compiled():
    """Not vacuously equal: the compiled path takes a well-formed report and trace-route
    message in either byte order, with or without an MQEPH or an MQMD."""
    rows = []
    for order in "<>":
        op = b.cfgr(mqc.MQGACF_OPERATION, [
            b.cfin(mqc.MQIACF_OPERATION_TYPE, mqc.MQOPER_PUT, order=order),
            b.cfst(mqc.MQCA_Q_MGR_NAME, b"QM1 ", 0, order=order),
            b.cfst(mqc.MQCACF_OPERATION_DATE, b"2026-11-28", 819, order=order),
            b.cfst(mqc.MQCACF_OPERATION_TIME, b"10.00.00", 367, order=order)], order=order)
        act = b.cfgr(mqc.MQGACF_ACTIVITY, [op], order=order)
        for typ, command in ((b.MQCFT_REPORT, b.MQCMD_ACTIVITY_MSG),
                             (b.MQCFT_TRACE_ROUTE, b.MQCMD_TRACE_ROUTE)):
            plain = b.cfh(1, typ=typ, command=command, order=order) + act
            wrapped = _eph(act, 1, typ, command, order, 1208, False)
            md = MQMD(format="MQADMIN", encoding={"<": 546, ">": 273}[order]).pack()
            eph_md = MQMD(format="MQHEPCF", encoding={"<": 546, ">": 273}[order]).pack()
            rows += [("s", len(rows), None, plain, None), ("s", len(rows) + 1, md, plain, None),
                     ("s", len(rows) + 2, None, wrapped, None),
                     ("s", len(rows) + 3, eph_md, wrapped, None)]
    _assert_same(rows)
    assert _taken(rows) == len(rows)


def test_the_constants_and_the_switch(monkeypatch):
    """The compiled code's built-in MQ constants are pcf.mqc's; MQROUTE_PCF_PURE=1 turns
    it off."""
    assert compiled.available() and compiled.STATUS.startswith("compiled")
    monkeypatch.setenv("MQROUTE_PCF_PURE", "1")
    module, status = compiled._load()
    assert module is None and "MQROUTE_PCF_PURE" in status
