"""Events <-> the JSON IBM's amqsevt prints (`-o json` and `-o json_compact`), both ways;
and its `-o text` form (with `-d`: MQ's constant names), one way.

The shape: eventSource {objectName, objectType, queueMgr}, eventType {name, value},
eventReason {name, value}, eventCreation {timeStamp, epoch}, then objectState (change
events) and correlationID (when the CorrelId is not null), then eventData with amqsevt's
parameter names and value spellings (traceroute.events.spelling). Reading the JSON back
gives Events whose PCF parameters encode to a real event message; names no constant has
are kept as they were so the round trip JSON -> Event -> JSON is exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pcf import mqc
from pcf.model import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcf.names import name_of, parameter_name
from pcf.text import printable
from traceroute.events.model import Event, EventSource, Unnamed
from traceroute.events.spelling import (
    event_type_name,
    family_value,
    parameter_ids,
    parameter_json_name,
    read_value,
    reason_name,
    spell_value,
    value_constant,
)

_OPERATORS = {mqc.MQCFOP_LESS: "Less", mqc.MQCFOP_EQUAL: "Equal",
              mqc.MQCFOP_GREATER: "Greater", mqc.MQCFOP_NOT_LESS: "Not Less",
              mqc.MQCFOP_NOT_EQUAL: "Not Equal", mqc.MQCFOP_NOT_GREATER: "Not Greater",
              mqc.MQCFOP_LIKE: "Like", mqc.MQCFOP_NOT_LIKE: "Not Like",
              mqc.MQCFOP_CONTAINS: "Contains", mqc.MQCFOP_EXCLUDES: "Excludes"}


class JsonEventError(ValueError):
    """amqsevt JSON that cannot be read as an event; says where (line) and why."""

    def __init__(self, reason: str, *, source: str = "<json>", line: int = 0) -> None:
        self.reason, self.source, self.line = reason, source, line
        super().__init__(f"{source}:{line}: {reason}")


# ---------------------------------------------------------------- Event -> JSON

def _value(p: Parameter) -> object:
    if isinstance(p, Group):
        return _members(p.parameters)
    if isinstance(p, Unnamed):
        return p.value
    if isinstance(p, Integer):
        return spell_value(p.parameter, p.value)
    if isinstance(p, IntegerList):
        if (parameter_name(p.parameter) or "").endswith("_ATTRS"):
            return [parameter_json_name(v) for v in p.value]
        return [spell_value(p.parameter, v) for v in p.value]
    if isinstance(p, Integer64 | Integer64List):
        return p.value
    if isinstance(p, String):
        return p.value if isinstance(p.value, str) else p.value.hex().upper()
    if isinstance(p, StringList):
        return [v if isinstance(v, str) else v.hex().upper() for v in p.value]
    if isinstance(p, ByteString):
        return p.value.hex().upper()
    if isinstance(p, IntegerFilter | StringFilter | ByteStringFilter):
        shown = p.value if isinstance(p.value, int | str) else p.value.hex().upper()
        return {"where": parameter_json_name(p.parameter),
                "operator": _OPERATORS.get(p.operator, p.operator), "value": shown}
    return repr(p)


def _key(p: Parameter) -> str:
    if isinstance(p, Unnamed):
        return p.json_name
    if isinstance(p, IntegerFilter | StringFilter | ByteStringFilter):
        return "filter"
    return parameter_json_name(p.parameter)


def _members(parameters: list[Parameter]) -> dict[str, object]:
    out: dict[str, object] = {}
    for p in parameters:
        key = _key(p)
        if key in out:  # a repeated parameter: amqsevt prints it again; JSON keeps the last
            n = 2
            while f"{key}.{n}" in out:
                n += 1
            key = f"{key}.{n}"
        out[key] = _value(p)
    return out


def to_json(event: Event) -> dict[str, object]:
    """The event as amqsevt's JSON object (key order as amqsevt prints it)."""
    out: dict[str, object] = {
        "eventSource": {"objectName": event.source.object_name,
                        "objectType": event.source.object_type,
                        "queueMgr": event.source.queue_mgr},
        "eventType": {"name": event_type_name(event.type), "value": event.type},
        "eventReason": {"name": reason_name(event.reason), "value": event.reason},
    }
    if event.time is not None:
        out["eventCreation"] = {"timeStamp": event.time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                "epoch": event.epoch}
    if event.object_state:
        out["objectState"] = event.object_state
    if event.correl_id and any(event.correl_id):
        out["correlationID"] = event.correl_id.hex().upper()
    for key, value in event.extra.items():
        out[key] = value
    out["eventData"] = _members(event.data)
    return out


# ---------------------------------------------------------------- Event -> text (-o text)

_LABEL = 21  # amqsevt's label column: the colon's place


def _line(label: str, value: object) -> str:
    """'label<padded to the colon's column>: value' (a longer label: 'label : value')."""
    head = label.ljust(_LABEL) if len(label) < _LABEL else label + " "
    return f"{head}: {value}"


def _label_words(p: Parameter) -> str:
    if isinstance(p, Unnamed):
        return p.json_name
    name = parameter_name(p.parameter)
    if name is None:
        return str(p.parameter)
    words = name.split("_")[1:]
    return " ".join("Queue" if w == "Q" else w.capitalize() for w in words)


def _text_value(p: Parameter, constants: bool) -> str:
    if isinstance(p, Integer) and constants:
        return str(value_constant(p.parameter, p.value))
    if isinstance(p, IntegerList) and constants:
        return ", ".join(str(value_constant(p.parameter, v)) for v in p.value)
    value = _value(p)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def _text_lines(parameters: list[Parameter], indent: int, constants: bool) -> list[str]:
    out = []
    for p in parameters:
        label = (parameter_name(p.parameter) or str(p.parameter)) \
            if constants and not isinstance(p, Unnamed) else _label_words(p)
        pad = " " * indent
        if isinstance(p, Group):
            out.append(f"{pad}{label}")
            out += _text_lines(p.parameters, indent + 2, constants)
            continue
        out.append(_line(pad + label, _text_value(p, constants)))
    return out


def text(event: Event, *, constants: bool = False, length: int | None = None,
         queue: str | None = None) -> str:
    """The event as amqsevt -o text prints it (`constants`: its -d form, MQ's constant
    names as they appear in the header files). `length`: the message's data length (the
    event's own when it was read from a message, else the bytes its PCF takes); `queue`:
    the queue it was read from."""
    if length is None:
        length = event.length
    if length is None:
        from traceroute.events.build import event_message

        length = len(event_message(event)[1])
    where = queue or event.source.object_name
    lines = [f"**** Message ({length} Bytes) on Queue {where} ****"]
    kind = (name_of(event.type, "MQCMD") or str(event.type)) if constants \
        else event_type_name(event.type)
    reason = (name_of(event.reason, "MQRC") or str(event.reason)) if constants \
        else reason_name(event.reason)
    lines += [_line("Event Type", kind), _line("Reason", reason)]
    if event.time is not None:
        t = event.time
        lines.append(_line("Event created", f"{t.strftime('%Y/%m/%d %H:%M:%S')}."
                                            f"{t.microsecond // 10000:02d} GMT"))
    if event.object_state:
        lines.append(_line("Object State", event.object_state))
    if event.correl_id and any(event.correl_id):
        lines.append(_line("Correlation Id", event.correl_id.hex().upper()))
    lines += _text_lines(event.data, 2, constants)
    return "\n".join(lines)


def dumps(event: Event, *, compact: bool = False) -> str:
    """amqsevt `-o json` text (2-space indent) or the one line `-o json_compact` prints."""
    obj = to_json(event)
    if not compact:
        return json.dumps(obj, indent=2, ensure_ascii=False)
    return _compact(obj)


def _scalar(v: object) -> str:
    return json.dumps(v, ensure_ascii=False)


def _compact_members(d: dict[str, object]) -> str:
    parts = []
    grouped = False
    for k, v in d.items():
        if isinstance(v, dict):
            grouped = True
            parts.append(f' {_scalar(k)} : {{{_compact_members(v)} }}')
        else:
            parts.append(f'   {_scalar(k)} : {_scalar(v)}')
    return ",".join(parts) + (" " if grouped else "")


def _compact(obj: dict[str, object]) -> str:
    """json_compact: amqsevt's pretty layout with its line breaks left out."""
    src = obj["eventSource"]
    parts = [f'"eventSource" : {{ "objectName": {_scalar(src["objectName"])},'  # type: ignore[index]
             f'{" " * 19}"objectType" : {_scalar(src["objectType"])},'  # type: ignore[index]
             f'{" " * 19}"queueMgr" : {_scalar(src["queueMgr"])}}}']  # type: ignore[index]
    for key in ("eventType", "eventReason"):
        d = obj[key]
        parts.append(f'{_scalar(key)} : {{     "name" : {_scalar(d["name"])},'  # type: ignore[index]
                     f'     "value" : {_scalar(d["value"])}   }}')  # type: ignore[index]
    for key, value in obj.items():
        if key in ("eventSource", "eventType", "eventReason", "eventData"):
            continue
        if key == "eventCreation":
            parts.append(f'"eventCreation" : {{     "timeStamp"  : '
                         f'{_scalar(value["timeStamp"])},'  # type: ignore[index]
                         f'     "epoch"      : {_scalar(value["epoch"])}   }}')  # type: ignore[index]
        else:
            parts.append(f"{_scalar(key)} : {_scalar(value)}")
    parts.append(f'"eventData" : {{{_compact_members(obj["eventData"])} }}')  # type: ignore[arg-type]
    return "{ " + ", ".join(parts) + " } "


# ---------------------------------------------------------------- JSON -> Event

def _pick(name: str, prefer_channel: bool) -> int | None:
    ids = parameter_ids(name)
    if not ids:
        return None
    if prefer_channel:
        for pid in ids:
            if 3501 <= pid <= 3999 or 1501 <= pid <= 1999:
                return pid
    return ids[0]


def _is_bytes_id(pid: int) -> bool:
    return 7001 <= pid <= 7999


def _is_int64_id(pid: int) -> bool:
    name = parameter_name(pid) or ""
    return name.startswith("MQIAMO64")


def _parameter(name: str, value: object, prefer_channel: bool) -> Parameter:
    """The typed parameter a JSON member names; kept as written when it would not write back
    the same (e.g. a number where amqsevt spells the value, `"inhibitPut": 0`)."""
    p = _typed_parameter(name, value, prefer_channel)
    if isinstance(p, Unnamed) or (
            _key(p) == name and json.dumps(_value(p)) == json.dumps(value)):
        return p
    return Unnamed(-1, json_name=name, value=value)


def _typed_parameter(name: str, value: object, prefer_channel: bool) -> Parameter:
    base = name.split(".", 1)[0] if "." in name and name.rsplit(".", 1)[1].isdigit() else name
    pid = _pick(base, prefer_channel)
    if pid is None or base == "filter" or base != name:
        return Unnamed(-1, json_name=name, value=value)
    if isinstance(value, dict):
        return Group(pid, [_parameter(k, v, prefer_channel) for k, v in value.items()])
    if isinstance(value, list):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return (Integer64List if _is_int64_id(pid) else IntegerList)(pid, list(value))
        if all(isinstance(v, str) for v in value):
            if (parameter_name(pid) or "").endswith("_ATTRS"):
                attrs = [(parameter_ids(v) or (None,))[0] for v in value]
                if all(a is not None for a in attrs):
                    return IntegerList(pid, attrs)  # type: ignore[arg-type]
            numbers = [read_value(pid, v) for v in value]
            if value and all(n is not None for n in numbers) and pid < 2001:
                return IntegerList(pid, numbers)  # type: ignore[arg-type]
            width = max((len(v) for v in value), default=0)
            return StringList(pid, list(value), width=width or None)
        return Unnamed(-1, json_name=name, value=value)
    if isinstance(value, bool) or value is None:
        return Unnamed(-1, json_name=name, value=value)
    if isinstance(value, int):
        if _is_int64_id(pid):
            return Integer64(pid, value)
        if -(2**31) <= value < 2**31 and pid < 2001:
            return Integer(pid, value)
        return Unnamed(-1, json_name=name, value=value)
    if isinstance(value, str):
        if _is_bytes_id(pid):
            try:
                return ByteString(pid, bytes.fromhex(value))
            except ValueError:
                return Unnamed(-1, json_name=name, value=value)
        if pid < 2001:
            number = read_value(pid, value)
            if number is None:
                return Unnamed(-1, json_name=name, value=value)
            return Integer(pid, number)
        return String(pid, value)
    return Unnamed(-1, json_name=name, value=value)


def _need(obj: dict, key: str, kind: type) -> object:
    value = obj.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{key} missing or not {kind.__name__}")
    return value


def from_json(obj: object, *, where: str = "") -> Event:
    """The Event an amqsevt JSON object describes; ValueError saying what is missing."""
    if not isinstance(obj, dict):
        raise ValueError("an event is a JSON object")
    src = _need(obj, "eventSource", dict)
    etype = _need(obj, "eventType", dict)
    reason = _need(obj, "eventReason", dict)
    type_value = _need(etype, "value", int)  # type: ignore[arg-type]
    reason_value = _need(reason, "value", int)  # type: ignore[arg-type]
    event = Event(
        source=EventSource(str(src.get("objectName", "")),  # type: ignore[union-attr]
                           str(src.get("objectType", "Queue")),  # type: ignore[union-attr]
                           str(src.get("queueMgr", ""))),  # type: ignore[union-attr]
        type=type_value, reason=reason_value, where=where)  # type: ignore[arg-type]
    if etype.get("name") != event_type_name(event.type):  # type: ignore[union-attr]
        event.extra["eventType"] = etype
    if reason.get("name") != reason_name(event.reason):  # type: ignore[union-attr]
        event.extra["eventReason"] = reason
    for key, value in obj.items():
        if key in ("eventSource", "eventType", "eventReason", "eventData"):
            continue
        if key == "eventCreation" and isinstance(value, dict):
            epoch = value.get("epoch")
            if isinstance(epoch, int) and not isinstance(epoch, bool):
                if not MIN_EPOCH <= epoch <= MAX_EPOCH:
                    raise ValueError(f"eventCreation epoch {str(epoch)[:24]}: past what a time "
                                     "can hold (years 1 to 9999)")
                event.time = _EPOCH_START + timedelta(seconds=epoch)
                if value != {"timeStamp": event.time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             "epoch": epoch}:
                    event.extra[key] = value
            else:
                event.extra[key] = value
        elif key == "objectState" and value in ("Before Change", "After Change"):
            before = value == "Before Change"
            event.msg_seq_number = 1 if before else 2
            event.control = mqc.MQCFC_NOT_LAST if before else mqc.MQCFC_LAST
        elif key == "correlationID" and isinstance(value, str):
            try:
                event.correl_id = bytes.fromhex(value)
            except ValueError:
                event.extra[key] = value
            else:
                if value != event.correl_id.hex().upper():
                    event.correl_id = None
                    event.extra[key] = value
        else:
            event.extra[key] = value
    data = obj.get("eventData", {})
    if not isinstance(data, dict):
        raise ValueError("eventData is not an object")
    channel = event.type == mqc.MQCMD_CHANNEL_EVENT
    event.data = [_parameter(k, v, channel) for k, v in data.items()]
    if to_json(event) != obj:  # keep anything the model cannot say as it was
        _keep_order(event, obj)
    return event


def _keep_order(event: Event, obj: dict) -> None:
    """Make to_json(event) reproduce obj's top-level key order and values exactly."""
    rebuilt = to_json(event)
    for key, value in obj.items():
        if key != "eventData" and rebuilt.get(key) != value:
            event.extra[key] = value
    if list(to_json(event)) != list(obj):
        event.extra = {k: v for k, v in obj.items()
                       if k not in ("eventSource", "eventType", "eventReason", "eventData")}
        event.time = None
        event.correl_id = None
        event.control, event.msg_seq_number = mqc.MQCFC_LAST, 1


@dataclass(slots=True)
class JsonItem:
    """One event read from a JSON file (or the error where one could not be read)."""

    event: Event | None
    line: int
    error: str | None = None


#: The seconds since 1970 of 0001-01-01 and 9999-12-31T23:59:59 (what a time can hold).
MIN_EPOCH, MAX_EPOCH = -62_135_596_800, 253_402_300_799
_EPOCH_START = datetime(1970, 1, 1, tzinfo=UTC)
#: The longest number read from amqsevt JSON (digits); amqsevt writes 64-bit integers.
MAX_NUMBER_DIGITS = 40
#: The deepest nesting read (amqsevt writes objects 3 deep, lists of them 4).
MAX_JSON_DEPTH = 32


def _number(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {len(text):,} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _real(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER_DIGITS else math.inf
    if not math.isfinite(value) or abs(value) >= 2**63:
        raise ValueError(f"a number out of range ({text[:20]}{'...' if len(text) > 20 else ''})")
    return value


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a number amqsevt writes")


def _too_deep(obj: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a decoded value nests deeper than `limit` (walked without recursion)."""
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict)
                                                  else value))
    return False


def iter_json(text: str, *, source: str = "<json>") -> Iterator[JsonItem]:
    """Every event of amqsevt output: pretty or compact, one or many, '#' comment lines.
    A document that is not JSON, nests deeper than MAX_JSON_DEPTH, or holds a number past
    MAX_NUMBER_DIGITS digits (or not finite) is one bad item naming its line; the rest read."""
    decoder = json.JSONDecoder(parse_int=_number, parse_float=_real,
                               parse_constant=_constant)
    pos, n = 0, len(text)
    line, counted = 1, 0  # lines counted up to `counted` (linear, not per object)
    while pos < n:
        ch = text[pos]
        if ch in " \t\r\n,":
            pos += 1
            continue
        line += text.count("\n", counted, pos)
        counted = pos
        if ch == "#":
            end = text.find("\n", pos)
            pos = n if end < 0 else end + 1
            continue
        try:
            obj, end = decoder.raw_decode(text, pos)
            if _too_deep(obj):
                raise RecursionError
        except (ValueError, RecursionError) as e:
            reason = f"not JSON: {e.msg} (line {e.lineno})" \
                if isinstance(e, json.JSONDecodeError) else \
                f"not read: nested deeper than {MAX_JSON_DEPTH}" \
                if isinstance(e, RecursionError) else f"not read: {e}"
            yield JsonItem(None, line, reason)
            nxt = text.find("\n{", pos + 1)
            pos = n if nxt < 0 else nxt + 1
            continue
        pos = end
        try:
            yield JsonItem(from_json(obj, where=f"{source}:{line}"), line)
        except (ValueError, OverflowError) as e:   # a value past what it can be: this one
            yield JsonItem(None, line, str(e))


def reason_from_name(name: str) -> int | None:
    """An event reason from its MQRC_ name, its number, or amqsevt's spelling."""
    if name.isascii() and name.isdigit():
        return int(name)
    value = getattr(mqc, name.upper(), None)
    if isinstance(value, int) and name.upper().startswith("MQRC_"):
        return value
    return family_value("MQRC_", name) or family_value("MQRC_", name.title())


def _short(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if isinstance(value, str):
        return value if value and " " not in value else json.dumps(value)
    return str(value)


def event_line(event: Event, *, limit: int = 12) -> str:
    """One line for people: time, queue manager, type, reason, object, the first data items
    (control characters in names shown as `\\uXXXX`: always one line)."""
    when = event.time.strftime("%Y-%m-%dT%H:%M:%SZ") if event.time else "-"
    data = to_json(event)["eventData"]
    items = [f"{k}={_short(v)}" for k, v in list(data.items())[:limit]]  # type: ignore[union-attr]
    more = len(data) - limit  # type: ignore[arg-type]
    if more > 0:
        items.append(f"(+{more} more)")
    state = f" [{event.object_state}]" if event.object_state else ""
    obj = f" {event.object_name}" if event.object_name else ""
    return printable(f"{when} {event.qmgr or '-'} {event_type_name(event.type)}: "
                     f"{reason_name(event.reason)} ({event.reason}){state}{obj}  "
                     + " ".join(items))
