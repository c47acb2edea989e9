"""The layouts of the MQ SMF structures: data tables (layouts/*.tsv) and their compiled readers.

Each table lists one structure's fields, one per line, tab-separated:

    offset  type  name  [when  [unset]]

* offset: bytes from the start of the structure; `qwhc+N` counts from the QWHC correlation
  header (QMAC's task identification); `-` for values that are not in the structure.
* name: the column, exactly IBM's formatter's JSON key. A `time` field is the stem of two
  columns, NAMEDate and NAMETime; a name ending in `[]` is an element of the list NAME.
* when: `version>=N`: the field exists only when the structure's version field (`@version`)
  is at least N; `length>N`: only when the structure is longer than N bytes (a flag of a
  later version kept in an earlier word). Every field also exists only when it lies wholly
  within the structure's length, so the record's own lengths decide which MQ version's
  fields it has.
* unset: `VALUE:SHOWN`: the hexadecimal VALUE means "never set" and reads as SHOWN.

Types (big-endian, as z/OS writes them):
  u8 s16 u16 s32 u32 s64   integers
  u64        64-bit counter; like IBM's formatter, the top bit is dropped
  stck       8-byte STCK duration, read as microseconds
  time       8-byte STCK time of day (UTC)
  ebcdic:N   N bytes of EBCDIC text         hex:N   N bytes shown in hexadecimal
  enum:T:N   N-byte number named by table T (ENUMS)
  bits32:M:ON:OFF / bits8:M:ON:OFF   ON when the word (byte) has any bit of mask M, else OFF
  ebcdicif:N:O:M   N bytes of EBCDIC text when the byte at offset O has a bit of mask M,
                   else N blanks
  index      the structure's position in its self-defining section (0, 1, ...)
  correlator the task's correlator (WTID: of its WTAS, or of its last WQ)

Properties (`@name values`): `@length O`: the structure's 2-byte length is at offset O
(`section`: it has none; the self-defining section's length counts); `@version O`: a 4-byte
version number at offset O; `@entries START SIZE COUNT`: the structure holds COUNT entries of
SIZE bytes from START, one row each, offsets in the table counting from each entry;
`@qwhc O`: the QWHC starts O bytes into the record's QWHS.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

#: IBM's formatter's names for the numbers its tables show as text.
ENUMS: dict[str, dict[int, str]] = {
    "MQCHLD": {-1: "All", 1: "Default", 2: "Shared", 4: "Private", 5: "Fixshared"},
    "MQCHT": {1: "Sender", 2: "Server", 3: "Receiver", 4: "Requester", 5: "All",
              6: "ClntConn", 7: "SvrConn", 8: "ClusRcvr", 9: "ClusSdr", 10: "MQTT",
              11: "AMQP"},
    "MQCHS": {0: "Inactive", 1: "Binding", 2: "Starting", 3: "Running", 4: "Stopping",
              5: "Retrying", 6: "Stopped", 7: "Requesting", 8: "Paused", 9: "Disconnected",
              13: "Initializing", 14: "Switching"},
    "MQMON": {-3: "QMgr", -1: "None", 0: "Off", 1: "On", 17: "Low", 33: "Medium", 65: "High"},
    "CONNTYPE": {1: "CICS", 2: "TSO", 3: "IMS Ctl ", 4: "IMS MPP/BMP", 5: "Cmd Svr",
                 6: "CHIN", 7: "RRS", 8: "IGQ"},
    "MQQT": {1: "Local", 2: "Model", 3: "Alias", 6: "Remote", 7: "Cluster", 8: "Topic",
             1001: "All"},
    "MQIT": {0: "None", 1: "MsgId", 2: "CorrelId", 4: "MsgToken", 5: "GroupId"},
    "MQQSGD": {-1: "All", 0: "QMgr", 1: "Copy", 2: "Shared", 3: "Group", 4: "Private",
               6: "Live"},
}

_CODES = {"u8": "B", "s16": "h", "u16": "H", "s32": "i", "u32": "I", "s64": "q", "u64": "Q",
          "stck": "Q", "time": "Q"}
_SIZES = {"u8": 1, "s16": 2, "u16": 2, "s32": 4, "u32": 4, "s64": 8, "u64": 8, "stck": 8,
          "time": 8, "index": 0, "correlator": 16}
#: The kinds whose values are numbers (in tables: int64 columns).
INTEGER_KINDS = frozenset({"u8", "s16", "u16", "s32", "u32", "s64", "u64", "stck", "index"})
_DROP_SIGN = (1 << 63) - 1


@dataclass(frozen=True)
class Field:
    """One field of a structure's layout."""

    name: str
    kind: str
    offset: int | None
    size: int
    base: str = "struct"  # "struct", "qwhc" or "context"
    array: bool = False
    min_version: int = 0
    unset: tuple[int, int] | None = None
    args: tuple[str, ...] = ()
    min_length: int = 0


@dataclass(frozen=True)
class Layout:
    """One structure: its fields and how its length, version and entries are found."""

    name: str
    fields: tuple[Field, ...]
    length_at: int | None = 2
    version_at: int | None = None
    entries: tuple[int, int, int] | None = None
    qwhc_at: int | None = None
    columns: tuple[str, ...] = field(default=())
    #: Where the last field ends and the highest version any field needs: longer lengths
    #: and later versions read the same fields.
    extent: int = 0
    top_version: int = 0


def _parse_type(text: str) -> tuple[str, int, tuple[str, ...]]:
    kind, *args = text.split(":")
    if kind in ("ebcdic", "hex"):
        return kind, int(args[0]), ()
    if kind == "enum":
        if args[0] not in ENUMS:
            raise ValueError(f"unknown enumeration {args[0]}")
        return kind, int(args[1]), (args[0],)
    if kind in ("bits32", "bits8"):
        return kind, 4 if kind == "bits32" else 1, tuple(args)
    if kind == "ebcdicif":
        return kind, int(args[0]), tuple(args[1:])
    if kind not in _SIZES:
        raise ValueError(f"unknown type {text!r}")
    return kind, _SIZES[kind], ()


def parse_layout(name: str, text: str) -> Layout:
    """A layout table's text as a Layout (ValueError naming the line when it is malformed)."""
    fields: list[Field] = []
    props: dict[str, list[str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            if line.startswith("@"):
                key, *values = line[1:].split()
                props[key] = values
                continue
            offset_text, type_text, column, *rest = line.split("\t")
            kind, size, args = _parse_type(type_text)
            base, offset = "struct", None
            if offset_text.startswith("qwhc+"):
                base, offset = "qwhc", int(offset_text[5:])
            elif offset_text == "-":
                base = "context"
            else:
                offset = int(offset_text)
            when = rest[0] if rest else ""
            min_version = min_length = 0
            if when.startswith("version>="):
                min_version = int(when.removeprefix("version>="))
            elif when.startswith("length>"):
                min_length = int(when.removeprefix("length>")) + 1
            elif when:
                raise ValueError(f"unknown condition {when!r}")
            unset = None
            if len(rest) > 1 and rest[1]:
                value, shown = rest[1].split(":")
                unset = (int(value, 16), int(shown))
            fields.append(Field(column.removesuffix("[]"), kind, offset, size, base,
                                column.endswith("[]"), min_version, unset, args, min_length))
        except (ValueError, IndexError) as e:
            raise ValueError(f"layout {name}, line {number}: {e}") from None
    length = props.get("length", ["2"])[0]
    columns = []
    for f in fields:
        for column in ((f.name + "Date", f.name + "Time") if f.kind == "time" else (f.name,)):
            if column not in columns:
                columns.append(column)
    return Layout(
        name, tuple(fields),
        length_at=None if length == "section" else int(length),
        version_at=int(props["version"][0]) if "version" in props else None,
        entries=tuple(int(v) for v in props["entries"]) if "entries" in props else None,
        qwhc_at=int(props["qwhc"][0]) if "qwhc" in props else None,
        columns=tuple(columns),
        extent=(int(props["entries"][0]) + int(props["entries"][1]) * int(props["entries"][2])
                if "entries" in props else
                max((f.offset + f.size for f in fields if f.offset is not None), default=0)),
        top_version=max((f.min_version for f in fields), default=0))


#: The structures, in the order IBM's formatter meets them.
STRUCTURES = ("QSST", "QJST", "QMST", "QIST", "QPST", "QLST", "Q5ST", "QEST", "QTST", "QESD",
              "QIS1", "QQST", "QSPH", "QSGM", "QSRS", "QCCT", "QCTDSP", "QCTADP", "QCTSSL",
              "QCTDNS", "QMAC", "WTAS", "WQ", "WTID", "QCST")


@cache
def layout(name: str) -> Layout:
    """The layout of structure `name` (e.g. "QJST")."""
    text = resources.files("traceroute.smf").joinpath("layouts", f"{name.lower()}.tsv")
    return parse_layout(name, text.read_text(encoding="utf-8"))


Reader = Callable[[bytes, int], list]


def _converter(f: Field) -> Callable | None:
    convert: Callable | None = None
    if f.kind == "u64":
        convert = _DROP_SIGN.__and__
    elif f.kind == "stck":
        def convert(v: int) -> int:
            return v >> 12
    elif f.kind in ("bits32", "bits8"):
        mask, on, off = int(f.args[0], 16), f.args[1], f.args[2]

        def convert(v: int) -> str:
            return on if v & mask else off
    if f.unset is None:
        return convert
    value, shown = f.unset
    inner = convert

    def unset(v: int) -> object:
        if v == value:
            return shown
        return inner(v) if inner else v
    return unset


def _code(f: Field) -> str | None:
    if f.kind in _CODES:
        return _CODES[f.kind]
    if f.kind in ("ebcdic", "hex"):
        return f"{f.size}s"
    if f.kind == "enum":
        return {1: "b", 2: "h", 4: "i"}.get(f.size)
    if f.kind == "bits32":
        return "I"
    if f.kind == "bits8":
        return "B"
    return None


def _ebcdicif(f: Field) -> Callable[[bytes, int], bytes]:
    flag_at, mask = int(f.args[0]), int(f.args[1], 16)

    def read(buf: bytes, start: int) -> bytes:
        if buf[start + flag_at] & mask:
            return bytes(buf[start + f.offset:start + f.offset + f.size])
        return b"\x40" * f.size
    return read


@lru_cache(maxsize=1024)
def reader(name: str, base: str, length: int, version: int) -> Reader:
    """A function reading the `base` fields of structure `name` that exist at this length and
    version: (buffer, start) -> values in layout order (None for fields that do not exist and
    for fields of another base)."""
    lay = layout(name)
    count = len(lay.fields)
    present = sorted((f.offset, i) for i, f in enumerate(lay.fields)
                     if f.base == base and f.offset is not None and f.min_version <= version
                     and f.offset + f.size <= length and f.min_length <= length
                     and (f.kind != "ebcdicif" or int(f.args[0]) < length))
    pieces, slots, converters, extras = [">"], [], [], []
    cursor = 0
    for offset, i in present:
        f = lay.fields[i]
        code = _code(f)
        if code is None or offset < cursor:
            extras.append((i, _ebcdicif(f) if f.kind == "ebcdicif" else _single(f)))
            continue
        if offset > cursor:
            pieces.append(f"{offset - cursor}x")
        pieces.append(code)
        cursor = offset + f.size
        slots.append(i)
        converters.append(_converter(f))
    unpack = struct.Struct("".join(pieces)).unpack_from
    # each layout position: its slot in the unpacked tuple, or the None appended after it
    where = {i: j for j, i in enumerate(slots)}
    absent = len(slots)
    pick = operator.itemgetter(*(where.get(i, absent) for i in range(count)), absent)
    converted = [(i, j, c) for j, (i, c) in enumerate(zip(slots, converters, strict=True))
                 if c is not None]

    def read(buf: bytes, start: int) -> list:
        raw = unpack(buf, start)
        values = list(pick((*raw, None)))
        values.pop()
        for i, j, c in converted:
            values[i] = c(raw[j])
        for i, get in extras:
            values[i] = get(buf, start)
        return values
    return read


def _single(f: Field) -> Callable[[bytes, int], object]:
    one = struct.Struct(">" + _code(f)).unpack_from
    convert = _converter(f)

    def read(buf: bytes, start: int) -> object:
        value = one(buf, start + f.offset)[0]
        return convert(value) if convert else value
    return read
