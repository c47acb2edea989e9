"""Decoding messages built byte by byte from the spec's layouts (not by our encoder)."""

from __future__ import annotations

import struct

import pytest

import pcf
from pcf import mqc


def cfh(p: str, typ: int, command: int, count: int, reason: int = 0) -> bytes:
    """MQCFH per pcf-format.md §7."""
    return struct.pack(p + "9i", typ, 36, 3, command, 1, 1, 0, reason, count)


def cfin(p: str, pid: int, value: int) -> bytes:
    return struct.pack(p + "4i", 3, 16, pid, value)


def cfin64(p: str, pid: int, value: int) -> bytes:
    return struct.pack(p + "4iq", 23, 24, pid, 0, value)


def cfst(p: str, pid: int, raw: bytes, ccsid: int, pad: bytes = b"\x00") -> bytes:
    length = 20 + ((len(raw) + 3) & ~3)
    return struct.pack(p + "5i", 4, length, pid, ccsid, len(raw)) + raw.ljust(length - 20, pad)


def cfbs(p: str, pid: int, raw: bytes) -> bytes:
    length = 16 + ((len(raw) + 3) & ~3)
    return struct.pack(p + "4i", 9, length, pid, len(raw)) + raw.ljust(length - 16, b"\x00")


def cfgr(p: str, pid: int, count: int) -> bytes:
    return struct.pack(p + "4i", 20, 16, pid, count)


def cfil(p: str, pid: int, values: list[int]) -> bytes:
    return struct.pack(f"{p}4i{len(values)}i", 5, 16 + 4 * len(values), pid, len(values),
                       *values)


def cfsl(p: str, pid: int, items: list[bytes], width: int, ccsid: int) -> bytes:
    body = b"".join(i.ljust(width, b" ") for i in items)
    length = (24 + len(body) + 3) & ~3
    return struct.pack(p + "6i", 6, length, pid, ccsid, len(items), width) + \
        body.ljust(length - 24, b"\x00")


def eph(p: str, struc_length: int, fmt: bytes = b"        ", head: bytes = b"EPH ",
        enc: int = 0, ccsid: int = 0) -> bytes:
    """MQEPH per §6, without its MQCFH."""
    return head + struct.pack(p + "4i", 1, struc_length, enc, ccsid) + fmt + \
        struct.pack(p + "i", 1)


def activity(p: str, ccsid: int, name: bytes) -> bytes:
    """Activity -> Operation -> Message -> MQMD: four levels, as activity reports nest."""
    mqmd = cfgr(p, mqc.MQGACF_MQMD, 2) + cfbs(p, mqc.MQBACF_MSG_ID, b"M" * 24) + \
        cfin(p, mqc.MQIACF_PERSISTENCE, 1)
    message = cfgr(p, mqc.MQGACF_MESSAGE, 2) + cfin(p, mqc.MQIACF_MSG_LENGTH, 99) + mqmd
    operation = (cfgr(p, mqc.MQGACF_OPERATION, 3) + cfin(p, mqc.MQIACF_OPERATION_TYPE, 4)
                 + message + cfst(p, mqc.MQCA_Q_MGR_NAME, name, ccsid))
    return (cfgr(p, mqc.MQGACF_ACTIVITY, 3) + cfst(p, mqc.MQCACF_APPL_NAME, name, ccsid)
            + operation + cfin64(p, 65536, -(2 ** 40)))


def _check_activity(m: pcf.Message, name: str) -> None:
    (act,) = m.parameters
    assert act.label == "Activity"
    assert act.get(mqc.MQCACF_APPL_NAME) == name
    op = act.find(mqc.MQGACF_OPERATION)
    assert op.get(mqc.MQIACF_OPERATION_TYPE) == mqc.MQOPER_PUT
    assert op.get(mqc.MQCA_Q_MGR_NAME) == name
    msg = op.find(mqc.MQGACF_MESSAGE)
    assert msg.get(mqc.MQIACF_MSG_LENGTH) == 99
    md = msg.find(mqc.MQGACF_MQMD)
    assert md.get(mqc.MQBACF_MSG_ID) == b"M" * 24
    assert md.get(mqc.MQIACF_PERSISTENCE) == 1
    assert act.get(65536) == -(2 ** 40)


@pytest.mark.parametrize("p, encoding", [(">", 273), ("<", 546), (">", 785)])
def test_nested_groups_both_byte_orders(p, encoding):
    data = cfh(p, mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG, 1) + activity(p, 819, b"QM1")
    for enc in (encoding, None):  # given, and detected from the header
        m = pcf.decode(data, encoding=enc)
        assert m.header.type == mqc.MQCFT_REPORT
        _check_activity(m, "QM1")


def test_wrong_byte_order_is_an_error_not_garbage():
    data = cfh(">", mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG, 1) + activity(">", 819, b"QM1")
    with pytest.raises(pcf.PCFError):
        pcf.decode(data, encoding=546)


@pytest.mark.parametrize("ccsid, codec", [(37, "cp037"), (500, "cp500"), (1047, "cp1047"),
                                          (1140, "cp1140")])
def test_ebcdic_strings_blank_padded_with_0x40(ccsid, codec):
    name = "QM.ZOS1".encode(codec).ljust(48, b"\x40")
    data = cfh(">", mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG, 1) + activity(">", ccsid, name)
    _check_activity(pcf.decode(data, encoding=785), "QM.ZOS1")


def test_ccsid_zero_uses_the_message_ccsid():
    raw = "PAYROLL.Q".encode("cp500") + b"\x40" * 3
    data = cfh(">", mqc.MQCFT_RESPONSE, 13, 1) + cfst(">", mqc.MQCA_Q_NAME, raw, 0)
    assert pcf.decode(data, ccsid=500).get(mqc.MQCA_Q_NAME) == "PAYROLL.Q"


def test_ebcdic_eph_and_be_user_data():
    """An MQHEPCF message from z/OS: EBCDIC 'EPH ' StrucId and Format, user data after."""
    params = cfin(">", mqc.MQIACF_ROUTE_DETAIL, 8)
    head = eph(">", 68 + len(params), fmt="MQSTR   ".encode("cp500"),
               head=b"\xc5\xd7\xc8\x40", enc=785, ccsid=500)
    data = head + cfh(">", mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE, 1) + params + \
        "HELLO".encode("cp500")
    m = pcf.decode(data, ccsid=500)  # detected: EBCDIC StrucId, big-endian Version
    assert m.eph == pcf.EmbeddedHeader(785, 500, "MQSTR", 1, 1)
    assert m.header.command == mqc.MQCMD_TRACE_ROUTE
    assert m.get(mqc.MQIACF_ROUTE_DETAIL) == 8
    assert m.user_data == "HELLO".encode("cp500")
    assert pcf.encode(m) == data


def test_eph_found_from_format_argument():
    params = cfin("<", 1, 7)
    data = eph("<", 68 + len(params)) + cfh("<", 12, 69, 1) + params
    m = pcf.decode(data, encoding=546, fmt="MQHEPCF ")
    assert m.eph is not None and m.get(1) == 7


def test_utf16_and_utf8_strings():
    data = (cfh("<", 2, 13, 2) + cfst("<", 3024, "Zürich".encode("utf-16-be"), 1200)
            + cfst("<", 3025, "Zürich ✓".encode(), 1208))
    m = pcf.decode(data)
    assert [p.value for p in m.parameters] == ["Zürich", "Zürich ✓"]


def test_unknown_ccsid_keeps_raw_bytes_and_says_so():
    data = cfh("<", 2, 13, 1) + cfst("<", 3024, b"\x81\x82", 4321)
    p = pcf.decode(data).parameters[0]
    assert p.value == b"\x81\x82" and not p.decoded
    assert "CCSID 4321" in pcf.render_tree(pcf.decode(data))
    assert pcf.message_to_dict(pcf.decode(data))["parameters"][0]["value_hex"] == "8182"


def test_string_list_and_integer_list():
    data = (cfh(">", 2, 13, 2) + cfsl(">", 3011, [b"Q.A", b"Q.LONGER"], 48, 819)
            + cfil(">", 1002, [1, -2, 3]))
    m = pcf.decode(data)
    assert m.get(3011) == ["Q.A", "Q.LONGER"]
    assert m.get(1002) == [1, -2, 3]


def test_group_membership_from_parameter_count_not_struc_length():
    # a group of 1 followed by a top-level integer: the integer is not in the group
    data = cfh("<", 2, 13, 2) + cfgr("<", 8005, 1) + cfin("<", 1, 1) + cfin("<", 2, 2)
    m = pcf.decode(data)
    assert len(m.parameters) == 2
    assert m.parameters[0].parameters == [pcf.Integer(1, 1)]
    assert m.parameters[1] == pcf.Integer(2, 2)


def test_decode_json_shape():
    data = cfh("<", 12, 69, 1) + activity("<", 819, b"QM1")
    d = pcf.message_to_dict(pcf.decode(data))
    assert d["header"]["type_name"] == "MQCFT_REPORT"
    act = d["parameters"][0]
    assert (act["id"], act["name"], act["type"], act["label"]) == (
        8005, "MQGACF_ACTIVITY", "MQCFGR", "Activity")
    op = act["parameters"][1]
    assert op["parameters"][0] == {"id": 1240, "name": "MQIACF_OPERATION_TYPE",
                                   "type": "MQCFIN", "value": 4, "value_name": "MQOPER_PUT"}
    md = op["parameters"][1]["parameters"][1]
    assert md["parameters"][0]["value_hex"] == "4d" * 24
