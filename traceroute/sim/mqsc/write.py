"""A network written back as MQSC, in dmpmqcfg's layout."""

from __future__ import annotations

import re

from traceroute.sim.mqsc.syntax import (
    COMMAND_OPTIONS,
    FLAG_KEYWORDS,
    LIST_KEYWORDS,
    STRING_KEYWORDS,
)
from traceroute.sim.network import Network

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


def to_mqsc(network: Network) -> str:
    """The network as MQSC in dmpmqcfg's layout: a header per queue manager, DEFINE ... REPLACE."""
    out: list[str] = []
    for qm in network.qmgrs.values():
        out += [_RULE, "* Written by traceroute.mqsc", f"* Queue manager name: {qm.name}",
                _RULE]
        if qm.attrs:
            _write(out, "ALTER QMGR", qm.attrs, replace=False)
        for q in qm.queues.values():
            _write(out, f"DEFINE {q.kind}({_quote(q.name)})", q.attrs, replace=True)
        for ch in qm.channels.values():
            _write(out, f"DEFINE CHANNEL({_quote(ch.name)})", _channel_order(ch.attrs),
                   replace=True)
        for (kind, name), obj in qm.others.items():
            _write(out, f"DEFINE {kind}({_quote(name)})", obj.attrs, replace=True)
        out.extend(f"STOP CHANNEL({_quote(name)})" for name in sorted(qm.stopped))
        out.append("")
    return "\n".join(out)
