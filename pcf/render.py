"""Human and JSON views of a decoded message: an indented tree with MQ names, and dicts."""

from __future__ import annotations

import json
from collections.abc import Callable

from pcf import mqc
from pcf.model import (
    ByteString,
    ByteStringFilter,
    EmbeddedHeader,
    Group,
    Header,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcf.names import describe_value, name_of

#: A list value (MQCFIL, MQCFIL64, MQCFSL) is shown in at most this many characters per
#: byte of its structure, plus LIST_SLACK; the items beyond are counted, not shown. (A
#: Count of tiny strings would otherwise print ~10 characters per byte of input.)
LIST_CHARS_PER_BYTE = 4
LIST_SLACK = 256


def structure_length(p: IntegerList | Integer64List | StringList) -> int:
    """The bytes a list parameter takes in a message (without padding)."""
    if isinstance(p, IntegerList):
        return 16 + 4 * len(p.value)
    if isinstance(p, Integer64List):
        return 16 + 8 * len(p.value)
    width = p.width if p.width is not None else max((len(v) for v in p.value), default=0)
    return 24 + width * len(p.value)


def _bounded(p: IntegerList | Integer64List | StringList, size: Callable[[object], int]
             ) -> tuple[list, int]:
    """(the items to show, how many are not shown) within the list's output budget."""
    budget = LIST_CHARS_PER_BYTE * structure_length(p) + LIST_SLACK
    used = 0
    for k, item in enumerate(p.value):
        used += size(item) + 2
        if used > budget:
            return p.value[:k], len(p.value) - k
    return p.value, 0


def _not_shown(hidden: int) -> str:
    return f"{hidden} more items not shown (output kept in proportion to the input)"


def _undecoded_note(ccsid: int) -> str:
    return f"CCSID {ccsid} unknown or invalid here: raw bytes"


def header_to_dict(h: Header) -> dict:
    """MQCFH fields with their names."""
    return {
        "type": h.type, "type_name": name_of(h.type, "MQCFT"),
        "struc_length": mqc.MQCFH_STRUC_LENGTH, "version": h.version,
        "command": h.command, "command_name": name_of(h.command, "MQCMD"),
        "msg_seq_number": h.msg_seq_number, "control": h.control,
        "comp_code": h.comp_code, "reason": h.reason,
        "reason_name": name_of(h.reason, "MQRC") if h.reason else None,
    }


def eph_to_dict(e: EmbeddedHeader) -> dict:
    """MQEPH fields."""
    return {"version": e.version, "encoding": e.encoding, "ccsid": e.ccsid,
            "format": e.format, "flags": e.flags}


def parameter_to_dict(p: Parameter) -> dict:
    """One parameter (a group with its members) as a JSON-ready dict."""
    out: dict = {"id": p.parameter, "name": p.name, "type": p.STRUCTURE}
    if isinstance(p, Group):
        out["label"] = p.label
        out["parameters"] = [parameter_to_dict(c) for c in p.parameters]
        return out
    if isinstance(p, String | StringList | StringFilter):
        out["ccsid"] = p.ccsid
    if isinstance(p, IntegerFilter | StringFilter | ByteStringFilter):
        out["operator"] = p.operator
        out["operator_name"] = name_of(p.operator, "MQCFOP")
    value = p.value
    if isinstance(value, bytes):
        out["value_hex"] = value.hex()
        if not isinstance(p, ByteString | ByteStringFilter):
            out["note"] = _undecoded_note(p.ccsid)
    elif isinstance(p, StringList):
        shown, hidden = _bounded(p, lambda v: len(json.dumps(v if isinstance(v, str)
                                                              else v.hex())))
        out["value"] = [v if isinstance(v, str) else v.hex() for v in shown]
        if not all(isinstance(v, str) for v in value):
            out["note"] = _undecoded_note(p.ccsid) + " (shown as hex)"
        if hidden:
            out["count"], out["not_shown"] = len(value), hidden
            out["note"] = (out.get("note", "") + "; " if "note" in out else "") + \
                _not_shown(hidden)
    elif isinstance(p, IntegerList | Integer64List):
        shown, hidden = _bounded(p, lambda v: len(str(v)))
        out["value"] = list(shown)
        if hidden:
            out["count"], out["not_shown"] = len(value), hidden
            out["note"] = _not_shown(hidden)
    else:
        out["value"] = value
        if isinstance(value, int) and not isinstance(p, IntegerFilter):
            symbol = describe_value(p.parameter, value)
            if symbol:
                out["value_name"] = symbol
    return out


def message_to_dict(m: Message) -> dict:
    """A whole message: header, MQEPH, parameters, user data."""
    out: dict = {"header": header_to_dict(m.header), "parameter_count": m.parameter_count}
    out["header"]["parameter_count"] = m.parameter_count
    if m.eph is not None:
        out["eph"] = eph_to_dict(m.eph)
    out["parameters"] = [parameter_to_dict(p) for p in m.parameters]
    if m.user_data:
        out["user_data"] = {"length": len(m.user_data), "hex": m.user_data.hex()}
    return out


def _named(value: int, family: str) -> str:
    name = name_of(value, family)
    return f"{name} ({value})" if name else str(value)


def value_text(p: Parameter) -> str:
    """A parameter's value as one line of display text."""
    value = p.value
    if isinstance(p, IntegerFilter | StringFilter | ByteStringFilter):
        op = name_of(p.operator, "MQCFOP") or f"operator {p.operator}"
        inner = f"x'{value.hex()}'" if isinstance(value, bytes) else repr(value)
        return f"{op} {inner}"
    if isinstance(value, bytes):
        if isinstance(p, ByteString):
            return f"x'{value.hex()}'"
        return f"x'{value.hex()}' ({_undecoded_note(p.ccsid)})"
    if isinstance(value, int):
        symbol = describe_value(p.parameter, value)
        return f"{value} ({symbol})" if symbol else str(value)
    if isinstance(value, list):
        def item(v: object) -> str:
            return f"x'{v.hex()}'" if isinstance(v, bytes) else repr(v)

        shown, hidden = _bounded(p, lambda v: len(item(v)))  # type: ignore[arg-type]
        more = f", ... {_not_shown(hidden)}" if hidden else ""
        return "[" + ", ".join(item(v) for v in shown) + more + "]"
    return repr(value)


def render_tree(m: Message, indent: str = "  ") -> str:
    """The message as an indented tree: `MQCACF_APPL_NAME: 'amqrmppa'`."""
    h = m.header
    lines = [f"MQCFH Type: {_named(h.type, 'MQCFT')}  Command: {_named(h.command, 'MQCMD')}  "
             f"MsgSeqNumber: {h.msg_seq_number}  Control: {h.control}  "
             f"CompCode: {h.comp_code}  Reason: {_named(h.reason, 'MQRC')}  "
             f"ParameterCount: {m.parameter_count}"]
    if m.eph is not None:
        e = m.eph
        lines.insert(0, f"MQEPH Encoding: {e.encoding}  CodedCharSetId: {e.ccsid}  "
                        f"Format: '{e.format}'  Flags: {e.flags}")
    for depth, p in m.walk():
        pad = indent * (depth + 1)
        if isinstance(p, Group):
            lines.append(f"{pad}{p.label} ({p.name}, {len(p.parameters)} parameters):")
        else:
            lines.append(f"{pad}{p.name}: {value_text(p)}")
    if m.user_data:
        lines.append(f"{indent}user data: {len(m.user_data)} bytes")
    return "\n".join(lines)
