"""Issue 17 in the codec: lookups for every parameter kind (2), unknown parameters hash by
value (1), list rendering bounded by the input's size (10), dump reads bounded (7)."""

from __future__ import annotations

import io
import json
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pcf
from pcf import dmpmqmsg
from pcf.errors import DumpFormatError
from pcf.model import Group, Integer, IntegerList, String, StringList, freeze
from pcf.render import message_to_dict, render_tree, value_text
from tests.support.pcfbytes import cfbs, cfgr, cfil, cfin, cfsl, cfst, message

GROUP, INNER = 8001, 8002


def every_kind() -> bytes:
    members = [cfin(1, 7), cfst(2015, b"QM1"), cfbs(7001, b"\x01\x02"), cfil(1001, [1, 2]),
               cfsl(3001, [b"A", b"B"], 4), cfgr(INNER, [cfin(1, 9)])]
    return message([cfgr(GROUP, members)])


def test_get_find_walk_work_for_every_kind():
    msg = pcf.decode(every_kind())
    group = msg.get(GROUP)
    assert isinstance(group, Group) and group is msg.find(GROUP)
    assert group.get(1) == 7
    assert group.get(2015) == "QM1"
    assert group.get(7001) == b"\x01\x02"
    assert group.get(1001) == [1, 2]
    assert group.get(3001) == ["A", "B"]
    inner = group.get(INNER)  # a nested group: the group itself, not AttributeError
    assert isinstance(inner, Group) and inner.get(1) == 9
    assert group.get(99999, "absent") == "absent"
    assert [p.parameter for _, p in msg.walk()] == [GROUP, 1, 2015, 7001, 1001, 3001, INNER, 1]
    assert Group(1, [Group(2, [])]).get(2) == Group(2, [])


def test_freeze_is_equal_for_equal_parameters_and_hashable():
    a, b = pcf.decode(every_kind()), pcf.decode(every_kind())
    assert freeze(a.parameters[0]) == freeze(b.parameters[0])
    assert hash(freeze(a.parameters[0])) == hash(freeze(b.parameters[0]))
    c = pcf.decode(every_kind())
    c.parameters[0].parameters[-1].parameters[0].value = 10  # deep inside the nested group
    assert freeze(c.parameters[0]) != freeze(a.parameters[0])
    assert freeze(Integer(1, 2)) != freeze(String(1, 2))  # the structure counts too


def test_huge_count_of_tiny_strings_is_summarised():
    n = 100_000
    data = message([cfsl(3001, [b"\x01"] * n, 1)])
    msg = pcf.decode(data)
    assert len(msg.parameters[0].value) == n  # all decoded, nothing lost
    tree = render_tree(msg)
    assert len(tree) <= 4 * len(data) + 1024
    assert "more items not shown" in tree
    doc = message_to_dict(msg)["parameters"][0]
    assert doc["count"] == n and doc["not_shown"] == n - len(doc["value"]) > 0
    assert "not shown" in doc["note"]
    assert len(json.dumps(doc)) <= 4 * len(data) + 1024


def cfh_sl_zero(n: int) -> bytes:
    """An MQCFSL of n strings of StringLength 0."""
    return struct.pack("<6i", 6, 24 + n, 3001, 1208, n, 0) + bytes(n)


def test_zero_length_strings_and_long_integer_lists():
    zero = pcf.decode(message([cfh_sl_zero(50_000)]))
    assert len(render_tree(zero)) < 2048  # 50,000 empty strings: a line, not 200 KB
    ints = pcf.decode(message([cfil(1001, list(range(-2**31, -2**31 + 5000)))]))
    assert "not shown" not in render_tree(ints)  # 3.25 chars a byte: all shown
    assert len(message_to_dict(ints)["parameters"][0]["value"]) == 5000


def test_small_lists_render_as_before():
    assert value_text(IntegerList(1001, [1, 2])) == "[1, 2]"
    assert value_text(StringList(3001, ["A", b"\xff"], 1208, 1)) == "['A', x'ff']"


def test_stream_lines_bound_long_lines_and_lose_nothing():
    stream = io.BytesIO(b"cd\nef\n\n" + b"x" * 50 + b"\nlast")
    lines = list(dmpmqmsg.stream_lines(stream, b"ab", max_line=10))
    assert lines == ["abcd\n", "ef\n", "\n", "", "last"]
    assert isinstance(lines[3], dmpmqmsg.TooLong) and lines[3].size == 51


def _dump(data: bytes) -> bytes:
    return dmpmqmsg.write([dmpmqmsg.DumpedMessage(pcf.MQMD(), data)]).encode("latin-1")


def test_message_over_the_limit_is_reported_and_the_next_read(monkeypatch):
    monkeypatch.setattr(dmpmqmsg, "MAX_MESSAGE_LENGTH", 64)
    text = _dump(b"\x01" * 65) + _dump(b"\x02" * 64)
    errors: list[DumpFormatError] = []
    got = list(dmpmqmsg.iter_stream(io.BytesIO(text), source="d", on_error=errors.append))
    assert [m.data for m in got] == [b"\x02" * 64]
    (e,) = errors
    assert "MAXMSGL" in e.reason and e.source == "d" and e.line > 1


def test_endless_message_text_stops_the_read(monkeypatch):
    monkeypatch.setattr(dmpmqmsg, "MAX_DUMP_MESSAGE", 1000)
    text = _dump(b"\x01" * 8) + b"X 00\n" * 10_000
    errors: list[DumpFormatError] = []
    got = list(dmpmqmsg.iter_stream(io.BytesIO(text), source="d", on_error=errors.append))
    assert len(got) == 1 and len(errors) == 1 and "no blank line" in errors[0].reason
    with pytest.raises(DumpFormatError, match="no blank line"):
        list(dmpmqmsg.iter_stream(io.BytesIO(text), source="d"))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 300), st.integers(1, 40))
def test_stream_lines_lose_no_byte_wherever_the_head_ends(data, cut, max_line):
    cut = min(cut, len(data))
    whole = list(dmpmqmsg.stream_lines(io.BytesIO(data[cut:]), data[:cut], max_line=1000))
    assert "".join(whole).encode("latin-1") == data
    lines = list(dmpmqmsg.stream_lines(io.BytesIO(data[cut:]), data[:cut], max_line=max_line))
    assert len(lines) == len(whole)
    for kept, line in zip(lines, whole, strict=True):
        if isinstance(kept, dmpmqmsg.TooLong):
            assert len(line) > max_line and kept.size == len(line)
        else:
            assert kept == line and len(line) <= max_line
