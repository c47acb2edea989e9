"""Records as IBM's amqsmon prints them, and as JSON objects with amqsmon's labels.

Text: `RecordType: <kind>`, one `Label: value` line per parameter in message order
(strings quoted, integers bare, lists `[a, b]`, byte strings `x'hex'`, QueueType /
QueueDefinitionType / ChannelType / DiscType by name), groups as `QueueStatistics: N` with
their members indented two spaces, a blank line after each message; a parameter amqsmon
does not know is labelled with its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pcf
from pcf import mqc
from pcf.text import printable
from traceroute.stats.model import StatsRecord
from traceroute.stats.params import GROUP_LABEL, VALUE_NAMES, Kind, params_for

#: Top-level parameters the JSON envelope carries itself.
ENVELOPE = frozenset({mqc.MQCA_Q_MGR_NAME, mqc.MQCAMO_START_DATE, mqc.MQCAMO_START_TIME,
                      mqc.MQCAMO_END_DATE, mqc.MQCAMO_END_TIME})


def label_of(kind: Kind, in_group: bool, parameter: int) -> str:
    """amqsmon's label for a parameter in its context, or its number when unknown."""
    spec = params_for(kind, in_group).get(parameter)
    return spec.label if spec else str(parameter)


def _text(value: object, name: str | None) -> str:
    if isinstance(value, bytes):
        return f"x'{value.hex()}'"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, None) for v in value) + "]"
    if isinstance(value, int) and name in VALUE_NAMES:
        return VALUE_NAMES[name].get(value, str(value))
    return str(value)


def _lines(params: Iterable[pcf.Parameter], kind: Kind, in_group: bool, indent: str
           ) -> Iterator[str]:
    table = params_for(kind, in_group)
    for p in params:
        spec = table.get(p.parameter)
        label = spec.label if spec else str(p.parameter)
        if isinstance(p, pcf.Group):
            yield f"{indent}{label}:"
            yield from _lines(p.parameters, kind, in_group, indent + "  ")
            continue
        yield f"{indent}{label}: {_text(p.value, spec.name if spec else None)}"


def render_amqsmon(records: Iterable[StatsRecord]) -> Iterator[str]:
    """amqsmon's text for records: one block per message, its groups under it (each line
    one line: control characters in names shown as `\\uXXXX`)."""
    return (printable(line) for line in _amqsmon_lines(records))


def _amqsmon_lines(records: Iterable[StatsRecord]) -> Iterator[str]:
    current: tuple | None = None
    for r in records:
        if current is None or r.parameters is not current:
            if current is not None:
                yield ""
            current = r.parameters
            yield f"RecordType: {r.kind.value}"
            yield from _lines(r.parameters, r.kind, False, "")
        if r.kind.group is not None:
            yield f"{GROUP_LABEL[r.kind]}: {r.group_index}"
            yield from _lines(r.members, r.kind, True, "  ")
    if current is not None:
        yield ""


def _json_value(value: object) -> object:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if isinstance(value, pcf.Parameter):
        return _json_value(value.value)
    return value


def _data(params: Iterable[pcf.Parameter], kind: Kind, in_group: bool, skip: frozenset[int],
          out: dict[str, object]) -> None:
    for p in params:
        if p.parameter in skip:
            continue
        key = label_of(kind, in_group, p.parameter)
        if isinstance(p, pcf.Group):
            nested: dict[str, object] = {}
            _data(p.parameters, kind, in_group, frozenset(), nested)
            out[key] = nested
        else:
            out[key] = _json_value(p.value)


def record_to_json(record: StatsRecord) -> dict[str, object]:
    """The issue's JSON object for one record (or queue/channel group)."""
    data: dict[str, object] = {}
    _data(record.parameters, record.kind, False, ENVELOPE, data)
    _data(record.members, record.kind, True, frozenset(), data)
    return {
        "record_type": record.kind.value,
        "queue_manager": _json_value(record.queue_manager),
        "interval_start": record.interval_start,
        "interval_end": record.interval_end,
        "object": record.object_name,
        "data": data,
    }
