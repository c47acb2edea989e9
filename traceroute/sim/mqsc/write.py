"""A network written back as MQSC, in dmpmqcfg's layout."""

from __future__ import annotations

import re

from traceroute.sim.crtmqm import FLAGS, QMGR_DEFAULTS, RECORD_KEYS, TYPE_DEFAULTS
from traceroute.sim.mqsc.syntax import (
    COMMAND_OPTIONS,
    FLAG_KEYWORDS,
    LIST_KEYWORDS,
    STRING_KEYWORDS,
)
from traceroute.sim.network import (
    MQObject,
    Network,
    all_objects,
    default_record,
    default_records,
)

_SAFE_UNQUOTED = re.compile(r"[A-Z0-9._/%]+")
_RULE = "*" * 79


def _quote(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ValueError(f"{text!r} cannot be written in MQSC: it contains a line break")
    return "'" + text.replace("'", "''") + "'"


def _value(keyword: str, value: str) -> str:
    if keyword not in STRING_KEYWORDS and _SAFE_UNQUOTED.fullmatch(value):
        return value
    return _quote(value or " ")


def _attribute(keyword: str, value: str) -> str:
    if keyword in FLAGS and value in ("YES", "NO"):
        return keyword if value == "YES" else FLAGS[keyword]
    if not value and keyword in FLAG_KEYWORDS:
        return keyword
    if keyword in LIST_KEYWORDS:
        return f"{keyword}({','.join(_value(keyword, item) for item in value.split(','))})"
    return f"{keyword}({_value(keyword, value)})"


def _write(out: list[str], head: str, attrs: dict[str, str], *, replace: bool) -> None:
    parts = [_attribute(k, v) for k, v in attrs.items() if k not in COMMAND_OPTIONS]
    if replace:
        parts.append("REPLACE")
    if not parts:
        out.append(head)
        return
    out.append(f"{head} +")
    out.extend(f"   {part} +" for part in parts[:-1])
    out.append(f"   {parts[-1]}")


def _channel_order(attrs: dict[str, str]) -> dict[str, str]:
    """CHLTYPE first: MQ wants it right after the channel name."""
    return {**({"CHLTYPE": attrs["CHLTYPE"]} if "CHLTYPE" in attrs else {}), **attrs}


def _define(out: list[str], obj: MQObject, attrs: dict[str, str]) -> None:
    if obj.kind == "CHANNEL":
        attrs = _channel_order(attrs)
    _write(out, f"DEFINE {obj.kind}({_quote(obj.name)})", attrs, replace=True)


def _set(record: MQObject) -> str:
    """'SET CHLAUTH('profile')', 'SET AUTHREC' (its profile is an attribute) ..."""
    return f"SET {record.kind}" + (f"({_quote(record.name)})" if record.kind != "AUTHREC"
                                   else "")


def to_mqsc(network: Network, *, all: bool = False) -> str:
    """The network as MQSC in dmpmqcfg's layout: per queue manager a header, ALTER QMGR, then
    DEFINE ... REPLACE of its own objects, then the SYSTEM.* objects it altered (the type
    defaults last, so that what is written before takes crtmqm's values as it did), DELETE
    of the crtmqm objects it deleted, its SET CHLAUTH/AUTHREC/POLICY records, STOP CHANNEL
    and START LISTENER/SERVICE. Unaltered crtmqm objects are left out; `all` writes them
    too, and every object with all its attributes (as dmpmqcfg -a)."""
    out: list[str] = []
    for qm in network.qmgrs.values():
        out += [_RULE, "* Written by mqroute (traceroute.sim.mqsc)",
                f"* Queue manager name: {qm.name}", _RULE]
        if qm.attrs or all:
            _write(out, "ALTER QMGR", {**(QMGR_DEFAULTS if all else {}), **qm.attrs},
                   replace=False)
        objects = list(all_objects(qm)) if all else [
            *qm.queues.values(), *qm.channels.values(), *qm.others.values()]
        defaults = {name for name, _ in TYPE_DEFAULTS.values()}
        order = {False: 0, True: 1}
        for obj in sorted(objects, key=lambda o: (order[o.name.startswith("SYSTEM.")]
                                                  + order[o.name in defaults])):
            _define(out, obj, obj.effective() if all else dict(obj.attrs))
        for store in (qm.queues, qm.channels, qm.others):
            for key in sorted(store.__dict__.get("deleted", ()), key=str):
                obj = store._SYSTEM[key]
                out.append(f"DELETE {obj.kind}({_quote(obj.name)})")
        for record in qm.records.values():
            if all or not default_record(record):
                _write(out, _set(record), record.attrs, replace=False)
        for key, record in default_records().items():
            if key not in qm.records:  # a crtmqm record the configuration removed
                _write(out, _set(record), {k: v for k, v in record.attrs.items()
                                           if k in ("TYPE", *RECORD_KEYS[record.kind])}
                       | {"ACTION": "REMOVE"}, replace=False)
        out.extend(f"STOP CHANNEL({_quote(name)})" for name in sorted(qm.stopped))
        out.extend(f"START {kind}({_quote(name)})" for kind, name in sorted(qm.running))
        out.append("")
    return "\n".join(out)
