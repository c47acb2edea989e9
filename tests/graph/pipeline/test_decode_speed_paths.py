"""The decode stage's fast paths give what the plain ones give: LazyMQMD against md_from_group,
struct-free MQMD unpack against the layout read from the spec with `struct`, and the
column-wise classify_batches against operation_rows packed by pyarrow row by row."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from pcf.errors import PCFError
from pcf.model import ByteString, Group, Integer, String
from pcf.mqmd import MQMD, pack, unpack
from traceroute.records.descriptor import FIELDS, LazyMQMD, md_from_group, md_group
from traceroute.sim.corpus import corpus, corrupt

text = st.text(alphabet="ABCXYZ0123456789._ ", max_size=8).map(str.rstrip)
mqmds = st.builds(
    MQMD, version=st.sampled_from([1, 2]), report=st.integers(-2**31, 2**31 - 1),
    feedback=st.integers(0, 999), msg_id=st.binary(min_size=24, max_size=24),
    correl_id=st.binary(min_size=24, max_size=24), put_appl_name=text, format=text,
    reply_to_q=text, user_identifier=text, msg_seq_number=st.integers(0, 99))


@settings(max_examples=150, deadline=None)
@given(md=mqmds, first=st.sampled_from([None, "msg_id", "feedback", "put_appl_name",
                                        "version"]),
       junk=st.lists(st.sampled_from(["dup_msg_id", "wrong_type", "unknown"]), max_size=3))
def test_lazy_mqmd_is_md_from_group(md, first, junk):
    group = md_group(md)
    params = list(group.parameters)
    for j in junk:  # repeated / mistyped / unknown members: the last occurrence decides
        if j == "dup_msg_id":
            params.append(ByteString(mqc.MQBACF_MSG_ID, b"\x07" * 24))
        elif j == "wrong_type":
            params.append(Integer(mqc.MQBACF_MSG_ID, 5))
        else:
            params.append(String(mqc.MQCACF_VALUE_NAME, "x", 819, 4))
    group = Group(group.parameter, params)
    plain = md_from_group(group)
    lazy = LazyMQMD(group)
    if first:
        assert getattr(lazy, first) == getattr(plain, first)
    assert lazy == plain and plain == lazy
    assert repr(lazy) == repr(plain)
    assert dataclasses.asdict(lazy) == dataclasses.asdict(plain)
    assert pickle.loads(pickle.dumps(lazy)) == plain
    assert copy.deepcopy(lazy) == plain
    changed = dataclasses.replace(lazy, feedback=1)
    assert type(changed) is MQMD and changed == dataclasses.replace(plain, feedback=1)


def _spec_unpack(data: bytes, order: str) -> dict:
    """An MQMD read with struct from the field table of the MQMD spec (latin-1 text)."""
    layout = [("struc_id", "4s"), ("version", "i"), ("report", "i"), ("msg_type", "i"),
              ("expiry", "i"), ("feedback", "i"), ("encoding", "i"),
              ("coded_char_set_id", "i"), ("format", "8s"), ("priority", "i"),
              ("persistence", "i"), ("msg_id", "24s"), ("correl_id", "24s"),
              ("backout_count", "i"), ("reply_to_q", "48s"), ("reply_to_q_mgr", "48s"),
              ("user_identifier", "12s"), ("accounting_token", "32s"),
              ("appl_identity_data", "32s"), ("put_appl_type", "i"), ("put_appl_name", "28s"),
              ("put_date", "8s"), ("put_time", "8s"), ("appl_origin_data", "4s"),
              ("group_id", "24s"), ("msg_seq_number", "i"), ("offset", "i"),
              ("msg_flags", "i"), ("original_length", "i")]
    version = struct.unpack_from(order + "i", data, 4)[0]
    if version == 1:
        layout = layout[:24]
    values = struct.unpack_from(order + "".join(k for _, k in layout), data)
    out = {}
    bytes_fields = {"msg_id", "correl_id", "accounting_token", "group_id"}
    for (name, kind), v in zip(layout, values, strict=True):
        if kind.endswith("s") and name not in bytes_fields:
            v = v.decode("latin-1").rstrip(" \x00")
        out[name] = v
    del out["struc_id"]
    return out


@settings(max_examples=150, deadline=None)
@given(md=mqmds, big=st.booleans())
def test_unpack_reads_the_spec_layout(md, big):
    encoding = mqc.MQENC_NORMAL if big else mqc.MQENC_REVERSED
    data = pack(md, encoding=encoding)
    assert len(data) == (324 if md.version == 1 else 364)
    got = unpack(data)
    spec = _spec_unpack(data, ">" if big else "<")
    assert {k: getattr(got, k) for k in spec} == spec


def test_unpack_errors_unchanged():
    data = pack(MQMD(put_appl_name="APP"), encoding=mqc.MQENC_REVERSED)
    with pytest.raises(PCFError, match="MQMD format is not text in CCSID 4242"):
        unpack(data, ccsid=4242)  # no codec: the first text field is named
    bad = bytearray(data)
    bad[8 + 4 * 6:8 + 4 * 6 + 8] = b"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8"  # Format in UTF-8: bad
    with pytest.raises(PCFError, match="MQMD format is not text in CCSID 1208"):
        unpack(bytes(bad), ccsid=1208)


def test_column_wise_decode_is_the_row_wise_one():
    pa = pytest.importorskip("pyarrow")
    import random

    from graph.pipeline.classify import CLASSIFIED_COLUMNS, classify_batches
    from graph.pipeline.rows import OPERATION_COLUMNS
    from graph.pipeline.schema import arrow_schema
    from tests.support.stage_reference import operation_rows
    from traceroute.records.parse import parse_message

    items = corpus(12, seed=9)
    rng = random.Random(2)
    rows = [("c", n, pack(c.md), c.data) for n, c in enumerate(items)]
    rows += [("c", 9000, pack(items[0].md), corrupt(items[0].data, rng)),
             ("c", 9001, None, b"junk"), ("c", 9002, pack(items[1].md)[:50], items[1].data)]
    names = ("source", "position", "md", "data", "error")
    batch = pa.RecordBatch.from_arrays(
        [pa.array([r[0] for r in rows]), pa.array([r[1] for r in rows], pa.int64()),
         pa.array([r[2] for r in rows], pa.binary()), pa.array([r[3] for r in rows]),
         pa.array([None] * len(rows), pa.string())], names=list(names))
    got = pa.Table.from_batches(list(classify_batches(iter([batch, batch.slice(0, 0)]))))
    assert got.schema == arrow_schema(CLASSIFIED_COLUMNS)
    assert set(got["kind"].to_pylist()) == {"op", "reject"}
    ok = got.filter(pa.compute.equal(got["kind"], "op")).select(
        [n for n, _ in OPERATION_COLUMNS])
    expected = [r for src, pos, md, data in rows[:len(items)]
                for r in operation_rows(parse_message(unpack(md), data, source=src,
                                                      line=pos), position=pos)]
    assert ok.to_pylist() == pa.Table.from_pylist(
        expected, schema=arrow_schema(OPERATION_COLUMNS)).to_pylist()
    bad = got.filter(pa.compute.equal(got["kind"], "reject")).to_pylist()
    assert [(r["position"], r["error"].split(":")[0]) for r in bad] == \
        [(9000, "PCFError"), (9001, "PCFError"), (9002, "PCFError")]
    assert bad[0]["report_msg_id"] == items[0].md.msg_id.hex()
    assert all(r[k] is None for r in bad for k, _ in CLASSIFIED_COLUMNS
               if k not in ("kind", "source", "position", "report_msg_id", "error"))


def test_fields_table_matches_mqmd():
    assert {name for name, *_ in FIELDS} - {"struc_id"} == \
        {f.name for f in dataclasses.fields(MQMD)}
