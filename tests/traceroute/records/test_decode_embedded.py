"""`records.parse.decode_embedded` and `decode_plain` (activity reports' and trace-route
messages' way past pcf.decode's per-message work) give exactly pcf.decode's Message (header,
parameters, MQEPH, user data, encoding, CCSID) or step aside (None) -- for real simulated
messages and for every kind of damage, so that pcf.decode keeps deciding, and raising, for
anything unusual."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pcf
from pcf import fast, mqc
from traceroute import Simulator, TraceOptions, build_trace_message
from traceroute.records.parse import decode_activity, decode_embedded, decode_plain
from traceroute.sim import netgen
from traceroute.sim.corpus import corpus

pytestmark = pytest.mark.skipif(fast.compiled_parse is None, reason="compiled decoder not built")

REPORTS = [(c.md, c.data) for c in corpus(3, seed=7)
           if c.md.format.rstrip() == mqc.MQFMT_EMBEDDED_PCF.rstrip()]


def _trace_route_messages() -> list:
    """Trace-route messages as dspmqrte builds them and replies with accumulated activities."""
    out = []
    for options in ({}, {"ac": True, "d": "yes"}, {"t": "high", "s": "9", "xs": "60"}):
        out.append(build_trace_message(TraceOptions.from_dspmqrte(q="Q", rq="R", **options),
                                       msg_id=bytes(24)))
    gen = netgen.generate("mixed", 30, seed=2, targets=6, origins=2)
    sim = Simulator(gen.network, seed=1)
    for origin, queue, _dest in gen.targets:
        md, data = build_trace_message(TraceOptions.from_dspmqrte(
            q=queue, rq=netgen.REPLY_Q, ar=True), msg_id=bytes(24))
        sim.put(origin, queue, md, data, appl_name="dspmqrte")
        sim.run()
        while (got := sim.get(origin, netgen.REPLY_Q)) is not None:
            out.append(got)
    return [(md, data) for md, data in out if md.format.rstrip() == "MQADMIN"]


PLAIN = _trace_route_messages()
KINDS = {"embedded": (REPORTS, decode_embedded, mqc.MQFMT_EMBEDDED_PCF),
         "plain": (PLAIN, decode_plain, mqc.MQFMT_ADMIN)}


def _reference(data: bytes, encoding: int, ccsid: int, fmt: str = mqc.MQFMT_EMBEDDED_PCF):
    try:
        return pcf.decode(data, encoding=encoding, ccsid=ccsid, fmt=fmt)
    except pcf.PCFError:
        return None


def _same(got, want) -> None:
    assert got == want
    assert (got.encoding, got.ccsid) == (want.encoding, want.ccsid)
    assert [type(p) for p in got.parameters] == [type(p) for p in want.parameters]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_real_messages_are_read_at_once_and_equal(kind):
    messages, decode, fmt = KINDS[kind]
    assert len(messages) > 8
    for md, data in messages:
        got = decode(data, md.encoding, md.coded_char_set_id)
        assert got is not None
        _same(got, _reference(data, md.encoding, md.coded_char_set_id, fmt))
        assert decode_activity(md, data)[0] == got


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(["flip", "cut", "word", "append"]),
       st.sampled_from([546, 273, 0x111, 0, 785]), st.sampled_from([819, 0, 1208, 500, 37]),
       st.sampled_from(sorted(KINDS)))
def test_damaged_messages_equal_or_left_to_pcf_decode(seed, how, encoding, ccsid, kind):
    messages, decode, fmt = KINDS[kind]
    rng = random.Random(seed)
    _md, data = messages[rng.randrange(len(messages))]
    if how == "flip":
        at = rng.randrange(len(data))
        data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    elif how == "cut":
        data = data[:rng.randrange(len(data))]
    elif how == "word":
        at = rng.randrange(0, len(data) - 4) & ~3
        data = data[:at] + rng.choice([0, 36, 68, -1, 0x7FFFFFFF, 4]).to_bytes(
            4, "little", signed=True) + data[at + 4:]
    else:
        data += bytes(rng.randrange(1, 9))
    got = decode(data, encoding, ccsid)
    want = _reference(data, encoding, ccsid, fmt)
    if got is not None:
        assert want is not None, "read what pcf.decode refuses"
        _same(got, want)


def test_other_inputs_step_aside():
    _md, data = REPORTS[0]
    assert decode_embedded(bytearray(data), 546, 819) is None  # pcf.decode's own copy
    assert decode_embedded(data[:67], 546, 819) is None
    assert decode_embedded(b"\xc5\xd7\xc8\x40" + data[4:], 546, 819) is None  # EBCDIC MQEPH
    assert decode_plain(data, 546, 819) is None  # an MQEPH first, whatever the Format says


@pytest.mark.parametrize("at", range(0, 68, 4))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_header_word_damaged(at, kind):
    messages, decode, fmt = KINDS[kind]
    for md, data in messages[:6]:
        for value in (0, 1, 4, 36, 68, 69, -1, len(data), len(data) + 4, 0x7FFFFFFF):
            for order in ("little", "big"):
                bad = data[:at] + value.to_bytes(4, order, signed=True) + data[at + 4:]
                got = decode(bad, md.encoding, md.coded_char_set_id)
                want = _reference(bad, md.encoding, md.coded_char_set_id, fmt)
                if got is not None:
                    assert want is not None, (at, value, order)
                    _same(got, want)
