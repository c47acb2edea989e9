"""Round trips: decode(encode(m)) == m, and encode(decode(b)) == b for what we wrote."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

import pcf
from tests.support.strategies import messages

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _decode_like(m: pcf.Message, data: bytes) -> pcf.Message:
    fmt = "MQHEPCF" if m.eph is not None else "MQADMIN"
    return pcf.decode(data, encoding=m.encoding, ccsid=m.ccsid, fmt=fmt)


@SETTINGS
@given(messages())
def test_decode_of_encode_is_identity(m):
    assert _decode_like(m, pcf.encode(m)) == m


@SETTINGS
@given(messages())
def test_encode_of_decode_is_byte_exact(m):
    data = pcf.encode(m)
    again = _decode_like(m, data)
    assert pcf.encode(again) == data
    assert again.encoding & 0xF == m.encoding & 0xF and again.ccsid == m.ccsid


@SETTINGS
@given(messages())
def test_byte_order_is_detected_without_arguments(m):
    m.eph = None
    data = pcf.encode(m)
    assert pcf.decode(data, ccsid=m.ccsid) == m


@SETTINGS
@given(messages())
def test_every_message_renders(m):
    text = pcf.render_tree(m)
    assert text.startswith(("MQCFH", "MQEPH"))
    assert len(pcf.message_to_dict(m)["parameters"]) == m.parameter_count
