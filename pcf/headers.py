"""MQ headers that can stand in front of PCF data: MQDLH (dead-letter) and MQXQH (xmit queue)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from pcf import mqc
from pcf.codepages import decode_text, encode_text
from pcf.errors import PCFError
from pcf.mqmd import MQMD, pack, unpack

DLH_LENGTH = 172
XQH_LENGTH = 428
_DLH_IDS = {"DLH ".encode(c): c for c in ("latin-1", "cp500")}


@dataclass(slots=True)
class MQDLH:
    """Dead-letter header: why a message was dead-lettered and where it was going."""

    reason: int = 0
    dest_q_name: str = ""
    dest_q_mgr_name: str = ""
    encoding: int = mqc.MQENC_REVERSED
    coded_char_set_id: int = 1208
    format: str = ""
    put_appl_type: int = mqc.MQAT_QMGR
    put_appl_name: str = ""
    put_date: str = ""
    put_time: str = ""
    version: int = 1


def _order(data: bytes, offset: int) -> str:
    return "<" if struct.unpack_from("<i", data, offset + 4)[0] == 1 else ">"


def unpack_dlh(data: bytes, offset: int = 0) -> MQDLH:
    """Read an MQDLH at `offset` (byte order from its Version, character set from StrucId)."""
    if len(data) - offset < DLH_LENGTH:
        raise PCFError(f"truncated: {len(data) - offset} bytes for the 172-byte MQDLH",
                       offset=offset, path="MQDLH")
    head = bytes(data[offset:offset + 4])
    if head not in _DLH_IDS:
        raise PCFError(f"MQDLH StrucId is {head!r}, not 'DLH '", offset=offset, path="MQDLH")
    ccsid = 500 if _DLH_IDS[head] == "cp500" else 819
    o = _order(data, offset)
    (version, reason, dest_q, dest_qm, enc, cc, fmt, pat, pan, pdate,
     ptime) = struct.unpack_from(o + "ii48s48sii8si28s8s8s", data, offset + 4)
    text = [decode_text(v, ccsid) or "" for v in (dest_q, dest_qm, fmt, pan, pdate, ptime)]
    return MQDLH(reason, text[0], text[1], enc, cc, text[2], pat, text[3], text[4], text[5],
                 version)


def pack_dlh(dlh: MQDLH, *, encoding: int = mqc.MQENC_REVERSED, ccsid: int = 819) -> bytes:
    """Write an MQDLH in `encoding`'s byte order with character fields in `ccsid`."""
    o = ">" if encoding & mqc.MQENC_INTEGER_MASK == mqc.MQENC_INTEGER_NORMAL else "<"
    t = lambda s, n: encode_text(s, ccsid, width=n)  # noqa: E731
    return t("DLH ", 4) + struct.pack(
        o + "ii48s48sii8si28s8s8s", dlh.version, dlh.reason, t(dlh.dest_q_name, 48),
        t(dlh.dest_q_mgr_name, 48), dlh.encoding, dlh.coded_char_set_id, t(dlh.format, 8),
        dlh.put_appl_type, t(dlh.put_appl_name, 28), t(dlh.put_date, 8), t(dlh.put_time, 8))


@dataclass(slots=True)
class MQXQH:
    """Transmission-queue header: the destination and the original message's MQMD (v1)."""

    remote_q_name: str = ""
    remote_q_mgr_name: str = ""
    msg_desc: MQMD = field(default_factory=lambda: MQMD(version=1))
    version: int = 1


def unpack_xqh(data: bytes, offset: int = 0) -> MQXQH:
    """Read an MQXQH (with its embedded version-1 MQMD) at `offset`."""
    if len(data) - offset < XQH_LENGTH:
        raise PCFError(f"truncated: {len(data) - offset} bytes for the 428-byte MQXQH",
                       offset=offset, path="MQXQH")
    head = bytes(data[offset:offset + 4])
    ebcdic = head == "XQH ".encode("cp500")
    if head != b"XQH " and not ebcdic:
        raise PCFError(f"MQXQH StrucId is {head!r}, not 'XQH '", offset=offset, path="MQXQH")
    ccsid = 500 if ebcdic else 819
    o = _order(data, offset)
    version, rq, rqm = struct.unpack_from(o + "i48s48s", data, offset + 4)
    md = unpack(data, offset + 104, ccsid=ccsid, encoding=273 if o == ">" else 546)
    return MQXQH(decode_text(rq, ccsid) or "", decode_text(rqm, ccsid) or "", md, version)


def pack_xqh(xqh: MQXQH, *, encoding: int = mqc.MQENC_REVERSED, ccsid: int = 819) -> bytes:
    """Write an MQXQH; its MQMD is written as version 1 (324 bytes), as MQ does."""
    o = ">" if encoding & mqc.MQENC_INTEGER_MASK == mqc.MQENC_INTEGER_NORMAL else "<"
    md = MQMD(**{**{k: getattr(xqh.msg_desc, k) for k in xqh.msg_desc.__slots__},
                 "version": 1})
    return (encode_text("XQH ", ccsid) + struct.pack(
        o + "i48s48s", xqh.version, encode_text(xqh.remote_q_name, ccsid, width=48),
        encode_text(xqh.remote_q_mgr_name, ccsid, width=48))
        + pack(md, encoding=encoding, ccsid=ccsid))
