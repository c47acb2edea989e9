"""The compiled decoder (pcf._cdecode via pcf.fast) against the pure-Python reference.

Both paths must give identical trees (compared by repr, which also shows the fields equality
leaves out: String.width, Message.encoding/ccsid) and identical errors (reason, offset, path)
on spec-built messages, the real vectors, encoder round trips of hypothesis messages, and
random or mutated bytes. Tests needing the compiled decoder skip when it was not built.
"""

from __future__ import annotations

import gc
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import fast
from pcf.decoder import _decode, decode_python
from pcf.limits import MAX_DEPTH
from tests.support import pcfbytes as pb
from tests.support.strategies import messages

ROOT = Path(__file__).resolve().parents[2]
compiled_only = pytest.mark.skipif(not fast.available(), reason=f"compiled decoder: {fast.STATUS}")


def decode_compiled(data: bytes, **kwargs) -> pcf.Message:
    """decode() forced onto the compiled path (falls back to Python only on malformed input)."""
    return _decode(data, kwargs.get("encoding"), kwargs.get("ccsid"), kwargs.get("fmt"),
                   fast.compiled_parse)


def outcome(decode, data: bytes, **kwargs) -> tuple:
    """What a decode path makes of the bytes: the tree's repr, or the error's parts."""
    try:
        return ("tree", repr(decode(data, **kwargs)))
    except pcf.PCFError as exc:
        return ("error", exc.reason, exc.offset, exc.path)


def assert_same(data: bytes, **kwargs) -> tuple:
    """Both paths agree on the bytes; returns the outcome."""
    want = outcome(decode_python, data, **kwargs)
    assert outcome(decode_compiled, data, **kwargs) == want
    return want


def compiled_parse(data: bytes, count: int, little: bool = True):
    """The compiled parse of `count` structures after a 36-byte MQCFH, or None."""
    return fast.compiled_parse(data, 36, count, little, 1208, len(data), MAX_DEPTH)


# --- spec-built messages (struct, not our encoder) -------------------------------------------


def _every_structure(order: str) -> bytes:
    """One of each of the 11 structure types, two of them inside a group, after an MQCFH."""
    p = order
    body = [
        pb.cfin(1, -7, p),
        struct.pack(p + "4iq", 23, 24, 2, 0, -(2**40)),                     # MQCFIN64
        pb.cfst(3, "Grüße".encode(), 1208, p),
        pb.cfst(4, b"QM1     ", 819, p),                                   # padded: width 8
        pb.cfst(5, "ABC  ".encode("cp500"), 500, p),                       # EBCDIC
        pb.cfst(6, b"\xff\xfe", 1208, p),                                  # not UTF-8: bytes
        pb.cfst(7, b"xyz", 4242, p),                                       # unknown CCSID
        pb.cfbs(8, b"\x00\x01MSGID", p),
        pb.cfil(9, [1, -2, 2**31 - 1], p),
        struct.pack(p + "4i2q", 25, 32, 10, 2, 2**62, -1),                  # MQCFIL64
        pb.cfsl(11, [b"A", b"BB", b""], 4, 819, p),
        struct.pack(p + "5i", 13, 20, 12, 4, 99),                          # MQCFIF
        struct.pack(p + "6i", 14, 28, 13, 1, 1208, 3) + b"ab*\x00",        # MQCFSF
        struct.pack(p + "5i", 15, 24, 14, 1, 2) + b"\x01\x02\x00\x00",     # MQCFBF
        pb.cfgr(15, [pb.cfin(16, 5, p), pb.cfgr(17, [pb.cfst(18, b"in", 0, p)], p)], p),
    ]
    return pb.cfh(15, order=p) + b"".join(body) + b"USER"


@compiled_only
@pytest.mark.parametrize("order", ["<", ">"])
def test_every_structure_type_same_tree(order):
    data = _every_structure(order)
    kind, *_ = assert_same(data, encoding=546 if order == "<" else 273, ccsid=1208)
    assert kind == "tree"
    assert compiled_parse(data, 15, order == "<") is not None  # really the compiled path
    m = decode_compiled(data)
    assert [type(p).__name__ for p in m.parameters][:3] == ["Integer", "Integer64", "String"]
    assert m.parameters[3].value == "QM1" and m.parameters[3].width == 8
    assert m.parameters[4].value == "ABC"
    assert m.parameters[5].value == b"\xff\xfe" and m.parameters[6].value == b"xyz"
    assert m.parameters[9].value == [2**62, -1]
    assert m.parameters[10].value == ["A", "BB", ""] and m.parameters[10].width == 4
    assert m.find(15).find(17).get(18) == "in"
    assert m.user_data == b"USER"


@compiled_only
def test_public_api_identical_on_compiled_tree(vectors):
    data = (vectors / "pymqi/statistics_q.dat").read_bytes()
    a, b = decode_compiled(data), decode_python(data)
    assert pcf.render_tree(a) == pcf.render_tree(b)
    assert pcf.message_to_dict(a) == pcf.message_to_dict(b)
    assert list(a.walk()) == list(b.walk())
    assert pcf.encode(a) == pcf.encode(b) == data
    for pid in {p.parameter for _, p in b.walk()}:
        assert a.get(pid) == b.get(pid) and a.find_all(pid) == b.find_all(pid)


@compiled_only
def test_compiled_nodes_behave_like_constructed_ones():
    m = decode_compiled(_every_structure("<"))
    n = m.parameters[0]
    assert n == pcf.Integer(1, -7) and hash(pcf.model.freeze(n)) == hash((3, 1, -7, None, None))
    n.value = 8                                   # mutable like any dataclass instance
    assert n.value == 8
    group = m.find(15)
    assert gc.is_tracked(group) and gc.is_tracked(group.parameters)
    # leaves holding only ints, text, bytes and None are left to reference counting
    assert not gc.is_tracked(m.parameters[0]) and not gc.is_tracked(m.parameters[2])
    assert gc.is_tracked(m.parameters[8])         # an MQCFIL holds a list
    group.parameters.append(group)                # a cycle: the collector must free it
    gc.collect()
    del m, group, n
    assert gc.collect() >= 2                      # the group and its list at least


# --- real vectors ------------------------------------------------------------------------------


def _vector_files(vectors: Path) -> list[Path]:
    return sorted(p for p in vectors.rglob("*") if p.suffix in (".dat", ".bin"))


@compiled_only
def test_real_vectors_same_tree_or_error(vectors):
    files = _vector_files(vectors)
    assert files
    for path in files:
        assert_same(path.read_bytes())


@compiled_only
def test_every_truncation_and_byte_flip_of_statistics_same(vectors):
    data = (vectors / "pymqi/statistics_q.dat").read_bytes()
    for cut in range(0, len(data), 7):
        assert_same(data[:cut])
    for at in range(36, len(data), 5):
        for value in (0x00, 0xFF, 0x7F):
            assert_same(data[:at] + bytes([value]) + data[at + 1:])


@compiled_only
def test_sample_activity_reports_same():
    from traceroute.records import samples

    for md, data in [*samples.example_reports(), samples.large_activity_report(operations=40)]:
        kind, *_ = assert_same(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                               fmt=md.format)
        assert kind == "tree"


# --- hypothesis ------------------------------------------------------------------------------


@compiled_only
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages())
def test_encoded_messages_same_tree(message):
    data = pcf.encode(message)
    kwargs = {"encoding": message.encoding, "ccsid": message.ccsid}
    kind, *_ = assert_same(data, **kwargs)
    assert kind == "tree"
    assert decode_compiled(data, **kwargs) == message


_FIELD = st.one_of(st.integers(-3, 40), st.sampled_from([3, 4, 5, 6, 9, 13, 14, 15, 20, 23, 25]),
                   st.integers(-(2**31), 2**31 - 1))


@st.composite
def structure_soup(draw) -> bytes:
    """An MQCFH and words that look like structures: valid types, lengths often wrong."""
    order = draw(st.sampled_from("<>"))
    words = []
    for _ in range(draw(st.integers(0, 12))):
        typ = draw(st.sampled_from([3, 4, 5, 6, 9, 13, 14, 15, 20, 23, 25, 7]))
        length = draw(st.sampled_from([16, 20, 24, 28, 32, 12, 17, 1000])) \
            if draw(st.booleans()) else draw(_FIELD)
        extra = (abs(length) % 40) // 4
        words += [typ, length, draw(_FIELD), *(draw(_FIELD) for _ in range(extra))]
    body = struct.pack(f"{order}{len(words)}i", *words) if words else b""
    body += draw(st.binary(max_size=8))
    return pb.cfh(draw(st.integers(-1, 14)), order=order) + body


@compiled_only
@settings(max_examples=500, deadline=None)
@given(structure_soup())
def test_structure_soup_same_tree_or_error(data):
    assert_same(data)


@compiled_only
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages(), st.data())
def test_mutated_messages_same(message, draw):
    data = bytearray(pcf.encode(message))
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, max(0, len(data) - 1)))
        if data:
            data[at] = draw.draw(st.integers(0, 255))
    cut = draw.draw(st.integers(0, len(data)))
    assert_same(bytes(data[:cut]), encoding=message.encoding, ccsid=message.ccsid)


# --- deep nesting and the switch -------------------------------------------------------------


@compiled_only
@pytest.mark.parametrize("depth", [MAX_DEPTH, MAX_DEPTH + 1])
def test_nesting_limit_same(depth):
    inner = pb.cfgr(8000, [])
    for i in range(1, depth):
        inner = pb.cfgr(8000 + i, [inner])
    data = pb.cfh(1) + inner
    kind, *_ = assert_same(data)
    assert kind == ("tree" if depth <= MAX_DEPTH else "error")


@compiled_only
def test_memoryview_and_bytearray_inputs_same(vectors):
    data = (vectors / "pymqi/statistics_q.dat").read_bytes()
    want = repr(decode_python(data))
    assert repr(pcf.decode(bytearray(data))) == want
    assert repr(pcf.decode(memoryview(data))) == want


def test_pure_switch_in_a_fresh_interpreter():
    """MQROUTE_PCF_PURE=1 leaves the compiled decoder alone and decode still works."""
    code = ("import pcf, pcf.fast as f; from tests.support import pcfbytes as pb; "
            "m = pcf.decode(pb.cfh(1) + pb.cfin(1, 5)); "
            "print(f.available(), f.STATUS, m.get(1))")
    env = {**os.environ, "MQROUTE_PCF_PURE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, check=True, timeout=120)
    assert done.stdout.split() == ["False", "disabled", "by", "MQROUTE_PCF_PURE", "5"]


@compiled_only
def test_a_model_class_with_another_field_keeps_the_pure_path(monkeypatch):
    changed = (("parameter", "value", "extra"), *fast.NODE_FIELDS[1:])
    monkeypatch.setattr(fast, "NODE_FIELDS", changed)
    parse, status = fast._load()
    assert parse is None and "Integer has fields" in status


@compiled_only
def test_pipeline_decode_stage_same_rows_on_both_paths(monkeypatch):
    """graph.pipeline.classify.classify_batches (no Spark) gives the same rows and rejects."""
    pa = pytest.importorskip("pyarrow")
    from graph.pipeline.classify import classify_batches
    from pcf.mqmd import pack
    from traceroute.records import samples

    reports = [*samples.example_reports(), samples.large_activity_report(operations=5)]
    rows = [{"source": "s", "position": i, "error": None, "md": pack(md), "data": data}
            for i, (md, data) in enumerate(reports)]
    md0, data0 = reports[0]
    for cut in (40, 100, len(data0) - 3):           # truncated reports become rejects
        rows.append({"source": "s", "position": 100 + cut, "error": None, "md": pack(md0),
                     "data": data0[:cut]})
    batch = pa.RecordBatch.from_pylist(rows)

    def stage() -> list[dict]:
        return [r for out in classify_batches(iter([batch])) for r in out.to_pylist()]

    compiled = stage()
    monkeypatch.setattr(fast, "compiled_parse", None)
    pure = stage()
    assert compiled == pure
    assert sum(r["kind"] == "reject" for r in pure) == 3
    assert all(r["error"] for r in pure if r["kind"] == "reject")
    assert sum(r["kind"] == "op" for r in pure) > 10 and {r["kind"] for r in pure} == {
        "op", "reject"}


@compiled_only
def test_spec_vector_and_bad_input_tests_also_pass_on_the_pure_path():
    """The codec's spec, vector and bad-input tests run here on the compiled path; this runs
    them again with MQROUTE_PCF_PURE=1, so one test run checks both paths against them."""
    files = ["tests/pcf/test_codec_spec.py", "tests/pcf/test_vectors.py",
             "tests/pcf/test_bad_input.py"]
    env = {**os.environ, "MQROUTE_PCF_PURE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *files], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=False, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
