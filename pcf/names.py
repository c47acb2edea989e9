"""Value -> name lookups for MQ constants, by family (MQOPER, MQFB, parameter ids ...)."""

from __future__ import annotations

from functools import cache

from pcf import mqc

#: Families whose members are PCF parameter identifiers.
PARAMETER_FAMILIES = ("MQCA", "MQCACF", "MQCACH", "MQCAMO", "MQIA", "MQIACF", "MQIACH",
                      "MQIAMO", "MQIAMO64", "MQBA", "MQBACF", "MQGACF")

_MARKERS = ("_FIRST", "_LAST", "_LAST_USED", "_CURRENT_VERSION", "_MASK")

#: Where MQ gives one value several names, the one people know best.
_PREFERRED: dict[str, dict[int, str]] = {
    "MQAT": {6: "MQAT_UNIX", 11: "MQAT_WINDOWS_NT"},
    "MQENC": {546: "MQENC_REVERSED", 273: "MQENC_NORMAL", 785: "MQENC_S390"},
}

#: Which family names the values of an integer parameter (by parameter id).
VALUE_FAMILIES: dict[int, str] = {
    mqc.MQIACF_OPERATION_TYPE: "MQOPER",
    mqc.MQIA_APPL_TYPE: "MQAT",
    mqc.MQIACF_FEEDBACK: "MQFB",
    mqc.MQIACF_MSG_TYPE: "MQMT",
    mqc.MQIACF_PERSISTENCE: "MQPER",
    mqc.MQIACH_CHANNEL_TYPE: "MQCHT",
    mqc.MQIA_Q_TYPE: "MQQT",
    mqc.MQIACF_COMMAND: "MQCMD",
    mqc.MQIACF_EVENT_ORIGIN: "MQEVO",
    mqc.MQIACF_ROUTE_DETAIL: "MQROUTE_DETAIL",
    mqc.MQIACF_ROUTE_ACCUMULATION: "MQROUTE_ACCUMULATE",
    mqc.MQIACF_REASON_CODE: "MQRC",
    mqc.MQIACF_COMP_CODE: "MQCC",
}

#: Bit-flag families, shown as an OR of names.
FLAG_FAMILIES: dict[int, str] = {
    mqc.MQIACF_REPORT: "MQRO",
    mqc.MQIACF_ENCODING: "MQENC",
    mqc.MQIACF_ROUTE_FORWARDING: "MQROUTE_FORWARD",
    mqc.MQIACF_ROUTE_DELIVERY: "MQROUTE_DELIVER",
}


def family_of(name: str) -> str:
    """The family of a constant name: the part before the first underscore."""
    return name.split("_", 1)[0]


@cache
def _families() -> dict[str, dict[int, str]]:
    """Family -> value -> preferred name, built once from pcf.mqc."""
    table: dict[str, dict[int, str]] = {}
    for name, value in vars(mqc).items():
        if not name.startswith("MQ") or not isinstance(value, int) or isinstance(value, bool):
            continue
        if name.endswith(_MARKERS):
            continue
        values = table.setdefault(family_of(name), {})
        if name.endswith("_NONE"):
            values[value] = name  # 0 reads best as MQxx_NONE
        else:
            values.setdefault(value, name)
        # sub-families such as MQROUTE_DETAIL, for the value naming above
        head, _, rest = name.partition("_")
        sub = f"{head}_{rest.split('_', 1)[0]}"
        if sub != name:
            table.setdefault(sub, {}).setdefault(value, name)
    for family, names in _PREFERRED.items():
        table[family].update(names)
    return table


@cache
def _parameters() -> dict[int, str]:
    """Parameter id -> preferred name across the parameter families."""
    ids: dict[int, str] = {}
    families = _families()
    for fam in PARAMETER_FAMILIES:
        for value, name in families.get(fam, {}).items():
            ids.setdefault(value, name)
    return ids


def name_of(value: int, family: str) -> str | None:
    """The constant name of `value` in `family` (e.g. 4, 'MQOPER' -> 'MQOPER_PUT'), or None."""
    return _families().get(family, {}).get(value)


def value_of(name: str) -> int | str:
    """The value of a constant by name; KeyError when unknown."""
    value = getattr(mqc, name, None)
    if value is None:
        raise KeyError(name)
    return value


def parameter_name(parameter: int) -> str | None:
    """The MQ name of a parameter id (3024 -> 'MQCACF_APPL_NAME'), or None when unknown."""
    return _parameters().get(parameter)


def flags_of(value: int, family: str) -> list[str]:
    """The names of the bits set in a flag value (unknown bits as hex)."""
    if value == 0:
        none = name_of(0, family)
        return [none] if none else []
    names = []
    rest = value & 0xFFFFFFFF
    candidates = sorted(((v & 0xFFFFFFFF, n) for v, n in _families().get(family, {}).items()
                         if v), key=lambda c: (-c[0].bit_count(), c[0]))
    for bits, name in candidates:
        if rest & bits == bits:
            names.append(name)
            rest &= ~bits
    if rest:
        names.append(hex(rest))
    return names


def describe_value(parameter: int, value: int) -> str | None:
    """A symbolic rendering of an integer parameter's value, where its family is known."""
    family = VALUE_FAMILIES.get(parameter)
    if family:
        return name_of(value, family)
    flag_family = FLAG_FAMILIES.get(parameter)
    if flag_family:
        exact = _PREFERRED.get(flag_family, {}).get(value)
        return exact or " | ".join(flags_of(value, flag_family)) or None
    return None
