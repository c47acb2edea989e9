"""Label values: names from messages made safe to export, and MQ constants as mq_prometheus
spells them in labels."""

from __future__ import annotations

from functools import lru_cache

from pcf.names import name_of

#: Longest label value kept (MQ names are at most 48 characters; event data can be longer).
MAX_LABEL = 256


@lru_cache(maxsize=65536)
def label_value(value: object) -> str:
    """Text for a label: MQ's trailing blanks and NULs dropped, bytes as hex, characters
    UTF-8 cannot carry (lone surrogates) replaced, at most MAX_LABEL characters."""
    if value is None:
        return ""
    text = bytes(value).hex().upper() if isinstance(value, bytes | bytearray) else str(value)
    text = text.replace("\x00", "").rstrip(" ")
    if len(text) > MAX_LABEL:
        text = text[:MAX_LABEL - 1] + "\u2026"
    return text.encode("utf-8", "replace").decode("utf-8")


def constant_label(value: object, family: str) -> str:
    """An MQ constant without its family prefix (MQCHT_SENDER -> 'SENDER'), '' if unknown."""
    name = name_of(value, family) if isinstance(value, int) else None
    return name.removeprefix(family + "_") if name else ""


def reason_label(reason: int | None) -> str:
    """The MQRC_* name of a reason ('MQRC_Q_FULL'), its number when MQ names none, '' for
    none."""
    if not isinstance(reason, int):
        return ""
    return name_of(reason, "MQRC") or str(reason)
