"""Typed PCF tree -> bytes. Pure functions; writes what the decoder reads back equal."""

from __future__ import annotations

import struct

from pcf import mqc
from pcf.codepages import DEFAULT_CCSID, encode_text
from pcf.model import Group, IntegerList, Message, Parameter


def _pad4(n: int) -> int:
    return (n + 3) & ~3


def _zeros(n: int) -> bytes:
    return b"\x00" * ((-n) & 3)


class _Encoder:
    """One encode run: the byte-order prefix and the CCSID that CCSID 0 stands for."""

    __slots__ = ("ccsid", "p")

    def __init__(self, prefix: str, ccsid: int) -> None:
        self.p = prefix
        self.ccsid = ccsid

    def text(self, value: str | bytes, ccsid: int, width: int | None = None) -> bytes:
        """A string value in its CCSID (bytes kept as they are)."""
        if isinstance(value, bytes):
            return value
        return encode_text(value, ccsid or self.ccsid, width=width)

    def params(self, parameters: list[Parameter], out: list[bytes]) -> None:
        """Append the encoding of each parameter (groups with their members) to `out`."""
        p = self.p
        for par in parameters:
            pid = par.parameter
            t = par.TYPE
            if isinstance(par, Group):
                out.append(struct.pack(p + "4i", 20, 16, pid, len(par.parameters)))
                self.params(par.parameters, out)
            elif t == mqc.MQCFT_INTEGER:
                out.append(struct.pack(p + "4i", 3, 16, pid, par.value))
            elif t == mqc.MQCFT_STRING:
                raw = self.text(par.value, par.ccsid, par.width)
                out.append(struct.pack(p + "5i", 4, 20 + _pad4(len(raw)), pid, par.ccsid,
                                       len(raw)) + raw + _zeros(len(raw)))
            elif t == mqc.MQCFT_BYTE_STRING:
                raw = par.value
                out.append(struct.pack(p + "4i", 9, 16 + _pad4(len(raw)), pid, len(raw))
                           + raw + _zeros(len(raw)))
            elif t == mqc.MQCFT_INTEGER64:
                out.append(struct.pack(p + "4iq", 23, 24, pid, 0, par.value))
            elif t in (mqc.MQCFT_INTEGER_LIST, mqc.MQCFT_INTEGER64_LIST):
                code, size = ("i", 4) if isinstance(par, IntegerList) else ("q", 8)
                n = len(par.value)
                out.append(struct.pack(f"{p}4i{n}{code}", par.TYPE, 16 + size * n, pid, n,
                                       *par.value))
            elif t == mqc.MQCFT_STRING_LIST:
                items = [self.text(v, par.ccsid) for v in par.value]
                width = max([par.width or 0, *map(len, items)])
                blank = self.text(" ", par.ccsid)
                body = b"".join(i + blank * ((width - len(i)) // len(blank)) for i in items)
                if len(body) != width * len(items):
                    raise ValueError(f"{par.name}: strings cannot be padded to {width} bytes")
                size = 24 + len(body)
                out.append(struct.pack(p + "6i", 6, _pad4(size), pid, par.ccsid, len(items),
                                       width) + body + _zeros(size))
            elif t == mqc.MQCFT_INTEGER_FILTER:
                out.append(struct.pack(p + "5i", 13, 20, pid, par.operator, par.value))
            elif t == mqc.MQCFT_STRING_FILTER:
                raw = self.text(par.value, par.ccsid)
                out.append(struct.pack(p + "6i", 14, 24 + _pad4(len(raw)), pid, par.operator,
                                       par.ccsid, len(raw)) + raw + _zeros(len(raw)))
            elif t == mqc.MQCFT_BYTE_STRING_FILTER:
                raw = par.value
                out.append(struct.pack(p + "5i", 15, 20 + _pad4(len(raw)), pid, par.operator,
                                       len(raw)) + raw + _zeros(len(raw)))
            else:
                raise TypeError(f"cannot encode {type(par).__name__}")


def encode(message: Message, *, encoding: int | None = None, ccsid: int | None = None) -> bytes:
    """Encode a Message as PCF message data (what follows the MQMD).

    `encoding` (an MQENC_* value; its integer part picks the byte order) and `ccsid` (for
    CCSID-0 strings and the MQEPH's character fields) default to the message's own.
    """
    enc = message.encoding if encoding is None else encoding
    kind = enc & mqc.MQENC_INTEGER_MASK
    if kind not in (mqc.MQENC_INTEGER_NORMAL, mqc.MQENC_INTEGER_REVERSED):
        raise ValueError(f"Encoding {enc} names no integer byte order")
    prefix = ">" if kind == mqc.MQENC_INTEGER_NORMAL else "<"
    e = _Encoder(prefix, ccsid or message.ccsid or DEFAULT_CCSID)
    body: list[bytes] = []
    e.params(message.parameters, body)
    h = message.header
    cfh = struct.pack(prefix + "9i", h.type, mqc.MQCFH_STRUC_LENGTH, h.version, h.command,
                      h.msg_seq_number, h.control, h.comp_code, h.reason,
                      len(message.parameters))
    block = b"".join(body)
    eph = message.eph
    if eph is None:
        return cfh + block + message.user_data
    char_ccsid = e.ccsid
    head = encode_text("EPH ", char_ccsid)
    fmt = encode_text(eph.format, char_ccsid, width=8)
    if len(head) != 4 or len(fmt) != 8:
        raise ValueError(f"MQEPH character fields need a single-byte CCSID, not {char_ccsid}")
    struc_length = mqc.MQEPH_STRUC_LENGTH_FIXED + len(block)
    eph_bytes = (head + struct.pack(prefix + "4i", eph.version, struc_length, eph.encoding,
                                    eph.ccsid) + fmt + struct.pack(prefix + "i", eph.flags))
    return eph_bytes + cfh + block + message.user_data
