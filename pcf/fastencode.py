"""The fast PCF encoder: the same bytes as `pcf.encoder.encode`, for trees written in bulk.

`encode_fast` takes what `pcf.encode` takes and returns the same bytes (tests/pcf/
test_fastencode.py checks it on random trees, both byte orders, EBCDIC and multi-byte
CCSIDs). It is quicker on what the simulator writes most (activity reports, activity-trace
messages, events): one precompiled `struct.Struct` per structure header and byte order, a
dispatch table on the parameter's class instead of a chain of type tests, and each whole
MQCFST (header, text in its code page, blank padding, zero padding) cached by its values, as
the same queue-manager names, queue names, dates and times recur in every report. Structures
the simulator seldom writes (lists, filters) and unknown subclasses go through the reference
encoder, so errors stay those of `pcf.encode`. `register` lets a parameter class write itself
(records.build.MDGroup: an MQMD group straight from the descriptor's values). `pack_md` and
`pack_xqh` are `pcf.mqmd.pack` and `pcf.headers.pack_xqh` with the text fields cached.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter

from pcf import mqc
from pcf import mqmd as _mqmd
from pcf.codepages import DEFAULT_CCSID, encode_text
from pcf.encoder import _Encoder, encode
from pcf.headers import MQXQH
from pcf.model import (
    ByteString,
    Group,
    Integer,
    Integer64,
    Message,
    Parameter,
    String,
)
from pcf.mqmd import MQMD

#: class -> function(parameter, byte order "<"/">", message CCSID) -> its whole encoding, for
#: parameter classes that can write themselves quicker than their members (see `register`).
_CUSTOM: dict[type, Callable[[Parameter, str, int], bytes]] = {}

#: Entries the MQCFST cache holds before it starts afresh (bounded memory).
CACHE_LIMIT = 1 << 16

_PAD = (b"", b"\x00\x00\x00", b"\x00\x00", b"\x00")  # index: length & 3


class _Layouts:
    """The precompiled structure headers of one byte order."""

    __slots__ = ("cfh", "eph", "four", "i64", "one", "order", "string")

    def __init__(self, order: str) -> None:
        self.order = order
        self.four = struct.Struct(order + "4i")      # MQCFIN, MQCFGR, MQCFBS headers
        self.string = struct.Struct(order + "5i")    # MQCFST header
        self.i64 = struct.Struct(order + "4iq")      # MQCFIN64
        self.cfh = struct.Struct(order + "9i")       # MQCFH
        self.eph = struct.Struct(order + "4i")       # MQEPH after StrucId
        self.one = struct.Struct(order + "i")        # MQEPH Flags


_LAYOUTS = {">": _Layouts(">"), "<": _Layouts("<")}

# (byte order, message ccsid) -> (parameter id, value, ccsid, width) -> the whole MQCFST
_strings: dict[tuple[str, int], dict[tuple, bytes]] = {}


def _string_cache(order: str, default_ccsid: int) -> dict[tuple, bytes]:
    """The MQCFST cache of one byte order and message CCSID."""
    cache = _strings.get((order, default_ccsid))
    if cache is None:
        if len(_strings) >= 16:
            _strings.clear()
        cache = _strings[order, default_ccsid] = {}
    return cache


def _string(order: str, par: String, default_ccsid: int,
            cache: dict[tuple, bytes] | None = None) -> bytes:
    """One whole MQCFST, from the cache or made and cached."""
    if cache is None:
        cache = _string_cache(order, default_ccsid)
    value = par.value
    key = (par.parameter, value, par.ccsid, par.width)
    raw = cache.get(key)
    if raw is not None:
        return raw
    if isinstance(value, bytes):
        text = value
    else:
        text = encode_text(value, par.ccsid or default_ccsid, width=par.width)
    n = len(text)
    raw = _LAYOUTS[order].string.pack(4, 20 + ((n + 3) & ~3), par.parameter, par.ccsid,
                                      n) + text + _PAD[n & 3]
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = raw
    return raw


def _writer(order: str, default_ccsid: int) -> Callable[[list[Parameter], list[bytes]], None]:
    """The function appending the encoding of parameters to a list, for one run's settings."""
    lay = _LAYOUTS[order]
    four = lay.four.pack
    i64 = lay.i64.pack
    slow = _Encoder(order, default_ccsid)
    custom = _CUSTOM

    def params(parameters: list[Parameter], out: list[bytes],
               cache: dict[tuple, bytes] | None = None) -> None:
        append = out.append
        for par in parameters:
            cls = type(par)
            if cls is Integer:
                append(four(3, 16, par.parameter, par.value))
            elif cls is String:
                strings = _string_cache(order, default_ccsid) if cache is None else cache
                raw = strings.get((par.parameter, par.value, par.ccsid, par.width))
                append(raw if raw is not None else _string(order, par, default_ccsid, strings))
            elif cls is Group:
                members = par.parameters
                append(four(20, 16, par.parameter, len(members)))
                params(members, out, cache)
            elif cls is ByteString:
                append(byte_string(order, par.parameter, par.value))
            elif cls is Integer64:
                append(i64(23, 24, par.parameter, 0, par.value))
            elif cls in custom:
                append(custom[cls](par, order, default_ccsid))
            elif isinstance(par, Group):  # a subclass of Group: members as a group's
                members = par.parameters
                append(four(20, 16, par.parameter, len(members)))
                params(members, out, cache)
            else:
                slow.params([par], out)

    return params


_writers: dict[tuple[str, int], Callable[[list[Parameter], list[bytes]], None]] = {}


def register(cls: type, write: Callable[[Parameter, str, int], bytes]) -> None:
    """Let `encode_fast` write parameters of exactly `cls` with `write(par, order, ccsid)`.

    `write` must return what `pcf.encode` writes for the parameter (for a Group subclass:
    the MQCFGR and its members); `pcf.encode` itself never calls it.
    """
    _CUSTOM[cls] = write


def string_bytes(order: str, parameter: int, value: str | bytes, ccsid: int,
                 width: int | None, message_ccsid: int) -> bytes:
    """The whole MQCFST `pcf.encode` writes for String(parameter, value, ccsid, width)."""
    cache = _string_cache(order, message_ccsid)
    raw = cache.get((parameter, value, ccsid, width))
    if raw is None:
        raw = _string(order, String(parameter, value, ccsid, width), message_ccsid, cache)
    return raw


def byte_string(order: str, parameter: int, value: bytes) -> bytes:
    """The whole MQCFBS `pcf.encode` writes for ByteString(parameter, value)."""
    n = len(value)
    return _LAYOUTS[order].four.pack(9, 16 + ((n + 3) & ~3), parameter, n) + value + _PAD[n & 3]


def parameter_bytes(par: Parameter, order: str, message_ccsid: int) -> bytes:
    """One parameter (a group with its members) as `pcf.encode` writes it."""
    out: list[bytes] = []
    _writer(order, message_ccsid)([par], out)
    return b"".join(out)


def layouts(order: str) -> _Layouts:
    """The precompiled structure headers of a byte order ("<" or ">")."""
    return _LAYOUTS[order]


def encode_fast(message: Message, *, encoding: int | None = None,
                ccsid: int | None = None) -> bytes:
    """`pcf.encode(message, encoding=..., ccsid=...)`, byte for byte, faster."""
    enc = message.encoding if encoding is None else encoding
    kind = enc & mqc.MQENC_INTEGER_MASK
    if kind == mqc.MQENC_INTEGER_REVERSED:
        order = "<"
    elif kind == mqc.MQENC_INTEGER_NORMAL:
        order = ">"
    else:
        return encode(message, encoding=encoding, ccsid=ccsid)  # its error
    char_ccsid = ccsid or message.ccsid or DEFAULT_CCSID
    write = _writers.get((order, char_ccsid))
    if write is None:
        if len(_writers) >= 64:
            _writers.clear()
        write = _writers.setdefault((order, char_ccsid), _writer(order, char_ccsid))
    body: list[bytes] = []
    write(message.parameters, body, _string_cache(order, char_ccsid))
    block = b"".join(body)
    h = message.header
    lay = _LAYOUTS[order]
    cfh = lay.cfh.pack(h.type, mqc.MQCFH_STRUC_LENGTH, h.version, h.command,
                       h.msg_seq_number, h.control, h.comp_code, h.reason,
                       len(message.parameters))
    eph = message.eph
    if eph is None:
        return cfh + block + message.user_data
    head = _eph_texts(char_ccsid, eph.format)
    return b"".join((head[0], lay.eph.pack(eph.version, mqc.MQEPH_STRUC_LENGTH_FIXED + len(block),
                                           eph.encoding, eph.ccsid),
                     head[1], lay.one.pack(eph.flags),
                     cfh, block, message.user_data))


_eph_cache: dict[tuple[int, str], tuple[bytes, bytes]] = {}


def _eph_texts(char_ccsid: int, fmt: str) -> tuple[bytes, bytes]:
    """The MQEPH's StrucId and Format in `char_ccsid` (checked as `pcf.encode` does)."""
    got = _eph_cache.get((char_ccsid, fmt))
    if got is None:
        head = encode_text("EPH ", char_ccsid)
        name = encode_text(fmt, char_ccsid, width=8)
        if len(head) != 4 or len(name) != 8:
            raise ValueError(f"MQEPH character fields need a single-byte CCSID, not {char_ccsid}")
        got = (head, name)
        if len(_eph_cache) < 256:
            _eph_cache[(char_ccsid, fmt)] = got
    return got


# --- MQMD and MQXQH: the bytes of pcf.mqmd.pack and pcf.headers.pack_xqh ------------------------

_MD_FIELDS = tuple(name for name, _kind, _n in _mqmd._LAYOUT)
_md_get = attrgetter(*_MD_FIELDS)
_MD_TEXTS = tuple((i, n) for i, (_name, kind, n) in enumerate(_mqmd._LAYOUT) if kind == "c")
_MD_BYTES = tuple((i, n) for i, (_name, kind, n) in enumerate(_mqmd._LAYOUT) if kind == "b")
_MD_COUNT = {1: _mqmd._V1_FIELDS + 1, 2: len(_mqmd._LAYOUT)}
_texts: dict[tuple[str, int, int], bytes] = {}


def _text(value: str, ccsid: int, width: int) -> bytes:
    """encode_text(value, ccsid, width=width), cached (bounded)."""
    key = (value, ccsid, width)
    raw = _texts.get(key)
    if raw is None:
        raw = encode_text(value, ccsid, width=width)
        if len(_texts) >= CACHE_LIMIT:
            _texts.clear()
        _texts[key] = raw
    return raw


def pack_md(md: MQMD, *, encoding: int | None = None, ccsid: int = 819,
            version: int | None = None) -> bytes:
    """`pcf.mqmd.pack(md, encoding=..., ccsid=...)` (as if md.version were `version`), faster."""
    v = md.version if version is None else version
    enc = md.encoding if encoding is None else encoding
    kind = enc & mqc.MQENC_INTEGER_MASK
    count = _MD_COUNT.get(v)
    if count is None or kind not in (mqc.MQENC_INTEGER_NORMAL, mqc.MQENC_INTEGER_REVERSED):
        return _mqmd.pack(md if version is None else replace(md, version=version),
                          encoding=encoding, ccsid=ccsid)  # its error
    values = list(_md_get(md))
    values[0] = v
    for i, width in _MD_TEXTS:
        if i >= count:
            break
        raw = _text(values[i], ccsid, width)
        if len(raw) > width:
            return _mqmd.pack(replace(md, version=v), encoding=encoding, ccsid=ccsid)
        values[i] = raw
    for i, width in _MD_BYTES:
        if i < count and len(values[i]) > width:
            return _mqmd.pack(replace(md, version=v), encoding=encoding, ccsid=ccsid)
    order = ">" if kind == mqc.MQENC_INTEGER_NORMAL else "<"
    return _mqmd._STRUCTS[order, v].pack(_text("MD  ", ccsid, 4), *values[:count])


_XQH = {o: struct.Struct(o + "i48s48s") for o in "<>"}


def pack_xqh(xqh: MQXQH, *, encoding: int = mqc.MQENC_REVERSED, ccsid: int = 819) -> bytes:
    """`pcf.headers.pack_xqh(xqh, encoding=..., ccsid=...)`, byte for byte, faster."""
    o = ">" if encoding & mqc.MQENC_INTEGER_MASK == mqc.MQENC_INTEGER_NORMAL else "<"
    return (_text("XQH ", ccsid, 4)
            + _XQH[o].pack(xqh.version, _text(xqh.remote_q_name, ccsid, 48),
                           _text(xqh.remote_q_mgr_name, ccsid, 48))
            + pack_md(xqh.msg_desc, encoding=encoding, ccsid=ccsid, version=1))
