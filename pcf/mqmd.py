"""MQMD (message descriptor) versions 1 and 2: pack and unpack, both byte orders."""

from __future__ import annotations

import struct
from dataclasses import dataclass, fields

from pcf import mqc
from pcf.codepages import CODECS, encode_text
from pcf.errors import PCFError

_STRUC_ID = {"MD  ".encode(c): c for c in ("latin-1", "cp500")}

# (field, struct code) in wire order; 'c' fields are MQCHARn, 'b' MQBYTEn, 'i' MQLONG.
_LAYOUT: tuple[tuple[str, str, int], ...] = (
    ("version", "i", 4), ("report", "i", 4), ("msg_type", "i", 4), ("expiry", "i", 4),
    ("feedback", "i", 4), ("encoding", "i", 4), ("coded_char_set_id", "i", 4),
    ("format", "c", 8), ("priority", "i", 4), ("persistence", "i", 4), ("msg_id", "b", 24),
    ("correl_id", "b", 24), ("backout_count", "i", 4), ("reply_to_q", "c", 48),
    ("reply_to_q_mgr", "c", 48), ("user_identifier", "c", 12), ("accounting_token", "b", 32),
    ("appl_identity_data", "c", 32), ("put_appl_type", "i", 4), ("put_appl_name", "c", 28),
    ("put_date", "c", 8), ("put_time", "c", 8), ("appl_origin_data", "c", 4),
    ("group_id", "b", 24), ("msg_seq_number", "i", 4), ("offset", "i", 4),
    ("msg_flags", "i", 4), ("original_length", "i", 4),
)
_V1_FIELDS = 22  # fields of _LAYOUT in version 1 (after StrucId)


def _fmt(layout: tuple[tuple[str, str, int], ...]) -> str:
    return "".join(f"{n}s" if kind != "i" else "i" for _, kind, n in layout)


#: Indexes in _LAYOUT of the MQCHARn fields of each version.
_TEXT_FIELDS = {v: tuple(i for i, (_, kind, _n) in enumerate(_LAYOUT[:_V1_FIELDS + 1 if v == 1
                                                                    else None]) if kind == "c")
                for v in (1, 2)}

_STRUCTS = {
    (order, v): struct.Struct(order + "4s" + _fmt(_LAYOUT[:_V1_FIELDS + 1 if v == 1 else None]))
    for order in "<>" for v in (1, 2)
}


@dataclass(slots=True)
class MQMD:
    """An MQ message descriptor; character fields hold text without trailing blanks."""

    version: int = mqc.MQMD_VERSION_2
    report: int = mqc.MQRO_NONE
    msg_type: int = mqc.MQMT_DATAGRAM
    expiry: int = mqc.MQEI_UNLIMITED
    feedback: int = mqc.MQFB_NONE
    encoding: int = mqc.MQENC_REVERSED
    coded_char_set_id: int = 1208
    format: str = ""
    priority: int = mqc.MQPRI_PRIORITY_AS_Q_DEF
    persistence: int = mqc.MQPER_PERSISTENCE_AS_Q_DEF
    msg_id: bytes = bytes(24)
    correl_id: bytes = bytes(24)
    backout_count: int = 0
    reply_to_q: str = ""
    reply_to_q_mgr: str = ""
    user_identifier: str = ""
    accounting_token: bytes = bytes(32)
    appl_identity_data: str = ""
    put_appl_type: int = mqc.MQAT_NO_CONTEXT
    put_appl_name: str = ""
    put_date: str = ""
    put_time: str = ""
    appl_origin_data: str = ""
    group_id: bytes = bytes(24)
    msg_seq_number: int = 1
    offset: int = 0
    msg_flags: int = mqc.MQMF_NONE
    original_length: int = mqc.MQOL_UNDEFINED

    @property
    def length(self) -> int:
        """The packed length: 324 (version 1) or 364 (version 2)."""
        return mqc.MQMD_LENGTH_1 if self.version == 1 else mqc.MQMD_LENGTH_2

    def pack(self, *, encoding: int | None = None, ccsid: int = 819) -> bytes:
        """The MQMD as bytes, integers in `encoding`'s byte order (default: its own field)."""
        return pack(self, encoding=encoding, ccsid=ccsid)


FIELD_NAMES = tuple(f.name for f in fields(MQMD))


def _order(encoding: int) -> str:
    kind = encoding & mqc.MQENC_INTEGER_MASK
    if kind == mqc.MQENC_INTEGER_NORMAL:
        return ">"
    if kind == mqc.MQENC_INTEGER_REVERSED:
        return "<"
    raise PCFError(f"Encoding {encoding} names no integer byte order", path="MQMD")


def pack(md: MQMD, *, encoding: int | None = None, ccsid: int = 819) -> bytes:
    """Pack an MQMD (its `version` picks 324 or 364 bytes); text fields in `ccsid`."""
    if md.version not in (1, 2):
        raise ValueError(f"MQMD version {md.version} is not 1 or 2")
    order = _order(md.encoding if encoding is None else encoding)
    layout = _LAYOUT[:_V1_FIELDS + 1] if md.version == 1 else _LAYOUT
    values: list[object] = [encode_text("MD  ", ccsid)]
    for name, kind, size in layout:
        value = getattr(md, name)
        if kind == "c":
            raw = encode_text(value, ccsid, width=size)
            if len(raw) > size:
                raise ValueError(f"MQMD {name} {value!r} is longer than {size} bytes")
            value = raw
        elif kind == "b":
            if len(value) > size:
                raise ValueError(f"MQMD {name} is longer than {size} bytes")
            value = value.ljust(size, b"\x00")
        values.append(value)
    return _STRUCTS[order, md.version].pack(*values)


def unpack(data: bytes, offset: int = 0, *, encoding: int | None = None,
           ccsid: int | None = None) -> MQMD:
    """Unpack an MQMD at `offset`; byte order and character set are detected when not given."""
    struc_id = bytes(data[offset:offset + 4])
    if len(data) - offset < mqc.MQMD_LENGTH_1:
        raise PCFError(f"truncated: {len(data) - offset} bytes for an MQMD (324 or 364)",
                       offset=offset, path="MQMD")
    if ccsid is None:
        if struc_id not in _STRUC_ID:
            raise PCFError(f"MQMD StrucId is {struc_id!r}, not 'MD  '", offset=offset,
                           path="MQMD")
        ccsid = 500 if _STRUC_ID[struc_id] == "cp500" else 819
    if encoding is None:
        little = struct.unpack_from("<i", data, offset + 4)[0]
        order = "<" if little in (1, 2) else ">"
    else:
        order = _order(encoding)
    version = struct.unpack_from(order + "i", data, offset + 4)[0]
    if version not in (1, 2):
        shown = little if encoding is None else version
        raise PCFError(f"MQMD Version {shown} is not 1 or 2 (in either byte order)",
                       offset=offset + 4, path="MQMD")
    if version == 2 and len(data) - offset < mqc.MQMD_LENGTH_2:
        raise PCFError(f"truncated: {len(data) - offset} bytes for a version-2 MQMD (364)",
                       offset=offset, path="MQMD")
    values = list(_STRUCTS[order, version].unpack_from(data, offset))
    del values[0]  # StrucId
    codec = CODECS.get(ccsid)
    for i in _TEXT_FIELDS[version]:  # MQCHARn fields: text in the CCSID, padding stripped
        try:
            values[i] = values[i].decode(codec).rstrip(" \x00")  # type: ignore[arg-type]
        except (UnicodeDecodeError, TypeError):  # TypeError: no codec for the CCSID
            raise PCFError(f"MQMD {_LAYOUT[i][0]} is not text in CCSID {ccsid}",
                           offset=offset, path="MQMD") from None
    return MQMD(*values)  # _LAYOUT is MQMD's field order; version 1 leaves the rest default
