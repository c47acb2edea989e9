"""amqsevt's spelling of event parameters and values, both ways (MQ constant <-> text).

IBM's amqsevt sample names a parameter after its MQ constant (MQIA_HIGH_Q_DEPTH ->
`highQueueDepth`: the family prefix dropped, camel case, a lone Q read as Queue) and
spells a symbolic value the same way in words (MQPER_NOT_PERSISTENT -> `Not Persistent`,
MQRC_COMMAND_MQSC -> `Command MQSC`). Which constant family names the values of which
parameter is a table here, checked against the real captures. Pure lookups, built once.
"""

from __future__ import annotations

from functools import cache

from pcf import mqc
from pcf.names import PARAMETER_FAMILIES

#: Parameters newer than the constants in pcf.mqc (none since it has MQ 9.4's names).
EXTRA_PARAMETERS: dict[str, int] = {}
#: Value constants of headers pcf.mqc is not generated from: the entity types of cmqzc.h
#: (installable services), which authority records carry (EntityType).
EXTRA_VALUES: dict[str, int] = {"MQZAET_NONE": 0, "MQZAET_PRINCIPAL": 1, "MQZAET_GROUP": 2,
                                "MQZAET_UNKNOWN": 3}

#: Which constants spell the values of an integer parameter: (family prefix, ...) tried
#: in order; a prefix may be longer than the family (MQQA_PUT_ picks PUT_ALLOWED/INHIBITED).
VALUE_SPELLING: dict[int, tuple[str, ...]] = {
    mqc.MQIA_APPL_TYPE: ("MQAT_UNIX", "MQAT_WINDOWS_NT", "MQAT_"),
    mqc.MQIACF_EVENT_APPL_TYPE: ("MQAT_UNIX", "MQAT_WINDOWS_NT", "MQAT_"),
    mqc.MQIACF_REASON_QUALIFIER: ("MQRQ_",),
    mqc.MQIACF_EVENT_ORIGIN: ("MQEVO_",),
    mqc.MQIACF_OBJECT_TYPE: ("MQOT_",),
    mqc.MQIACF_COMMAND: ("MQCMD_",),
    mqc.MQIA_Q_TYPE: ("MQQT_",),
    mqc.MQIA_INHIBIT_PUT: ("MQQA_PUT_",),
    mqc.MQIA_INHIBIT_GET: ("MQQA_GET_",),
    mqc.MQIA_DEF_PERSISTENCE: ("MQPER_",),
    mqc.MQIA_SCOPE: ("MQSCO_Q_MGR", "MQSCO_CELL"),
    mqc.MQIA_DEF_BIND: ("MQBND_",),
    mqc.MQIA_DEF_PUT_RESPONSE_TYPE: ("MQPRT_",),
    mqc.MQIA_SHAREABILITY: ("MQQA_SHAREABLE", "MQQA_NOT_SHAREABLE"),
    mqc.MQIA_DEF_INPUT_OPEN_OPTION: ("MQOO_INPUT_SHARED", "MQOO_INPUT_EXCLUSIVE"),
    mqc.MQIA_HARDEN_GET_BACKOUT: ("MQQA_BACKOUT_",),
    mqc.MQIA_MSG_DELIVERY_SEQUENCE: ("MQMDS_",),
    mqc.MQIA_USAGE: ("MQUS_",),
    mqc.MQIA_TRIGGER_CONTROL: ("MQTC_",),
    mqc.MQIA_TRIGGER_TYPE: ("MQTT_",),
    mqc.MQIA_Q_DEPTH_HIGH_EVENT: ("MQEVR_",),
    mqc.MQIA_Q_DEPTH_LOW_EVENT: ("MQEVR_",),
    mqc.MQIA_Q_DEPTH_MAX_EVENT: ("MQEVR_",),
    # the captures show 0 as "Disabled" (MQEVR); HIGH/OK keep their own names [derived]
    mqc.MQIA_Q_SERVICE_INTERVAL_EVENT: ("MQEVR_DISABLED", "MQQSIE_HIGH", "MQQSIE_OK"),
    mqc.MQIA_PERFORMANCE_EVENT: ("MQEVR_",),
    mqc.MQIA_DIST_LISTS: ("MQDL_",),
    mqc.MQIA_NPM_CLASS: ("MQNPM_CLASS_",),
    mqc.MQIA_STATISTICS_Q: ("MQMON_",),
    mqc.MQIA_ACCOUNTING_Q: ("MQMON_",),
    mqc.MQIA_MONITORING_Q: ("MQMON_",),
    mqc.MQIA_CLWL_USEQ: ("MQCLWL_USEQ_",),
    mqc.MQIA_DEF_READ_AHEAD: ("MQREADA_",),
    mqc.MQIA_PROPERTY_CONTROL: ("MQPROP_",),
    mqc.MQIA_MEDIA_IMAGE_RECOVER_Q: ("MQIMGRCOV_",),
    mqc.MQIA_MAX_Q_FILE_SIZE: ("MQQFS_DEFAULT",),
    mqc.MQIA_DEFINITION_TYPE: ("MQQDT_",),
    mqc.MQIACF_IGNORE_STATE: ("MQIS_",),
    mqc.MQIACH_CHANNEL_TYPE: ("MQCHT_",),
    mqc.MQIACF_REASON_CODE: ("MQRC_",),
    mqc.MQIACF_CONV_REASON_CODE: ("MQRC_",),
    mqc.MQIA_BASE_TYPE: ("MQOT_",),
    mqc.MQIACF_COMP_CODE: ("MQCC_",),
    mqc.MQIA_QSG_DISP: ("MQQSGD_",),
    mqc.MQIACF_QSG_DISPS: ("MQQSGD_",),
    # amqsevt (amqsevta.c) spells every event switch of a queue manager with MQEVR_STR:
    # 'Disabled', 'Enabled', 'Exception' (CHLEV), 'No Display' (CMDEV) [derived: its source]
    **{p: ("MQEVR_",) for p in (
        mqc.MQIA_CHANNEL_AUTO_DEF_EVENT, mqc.MQIA_AUTHORITY_EVENT, mqc.MQIA_BRIDGE_EVENT,
        mqc.MQIA_CHANNEL_EVENT, mqc.MQIA_COMMAND_EVENT, mqc.MQIA_COMM_EVENT,
        mqc.MQIA_CONFIGURATION_EVENT, mqc.MQIA_INHIBIT_EVENT, mqc.MQIA_LOCAL_EVENT,
        mqc.MQIA_LOGGER_EVENT, mqc.MQIA_REMOTE_EVENT, mqc.MQIA_SSL_EVENT,
        mqc.MQIA_START_STOP_EVENT)},
    mqc.MQIACH_CHANNEL_STATUS: ("MQCHS_",),
    mqc.MQIACF_AUTH_REC_TYPE: ("MQOT_",),
    mqc.MQIACF_AUTHORIZATION_LIST: ("MQAUTH_",),
    mqc.MQIACF_ENTITY_TYPE: ("MQZAET_",),
}

#: Integer parameters amqsevt shows in hexadecimal ("0x10009528").
HEX_PARAMETERS: frozenset[int] = frozenset({mqc.MQIACF_ERROR_ID})

#: Words amqsevt keeps in capitals when spelling values.
_UPPER = ("Amqp", "Clwl", "Cpi", "Crl", "Csp", "Dns", "Idpw", "Igq", "Ipv", "Ldap", "Lu62",
          "Mqi", "Mqsc", "Mru", "Pcf", "Sctq", "Ssl", "Tcp", "Tls")


def _words(constant: str) -> list[str]:
    """The words after the family prefix, a lone Q read as QUEUE."""
    return ["QUEUE" if w == "Q" else w for w in constant.split("_")[1:] if w]


def pretty_name(constant: str) -> str:
    """A parameter constant as amqsevt names it: MQIA_HIGH_Q_DEPTH -> highQueueDepth."""
    words = _words(constant)
    if not words:
        return constant
    return words[0].lower() + "".join(w.capitalize() for w in words[1:])


def pretty_value(constant: str) -> str:
    """A value constant as amqsevt spells it: MQPER_NOT_PERSISTENT -> 'Not Persistent'."""
    if constant == "MQOT_Q":
        return "Queue"
    words = [w.capitalize() for w in _words(constant)]
    words = [w.upper() if w in _UPPER else w for w in words]
    return " ".join(words).replace("Zos", "zOS")


def _constants() -> dict[str, int]:
    table = {n: v for n, v in vars(mqc).items()
             if n.startswith("MQ") and isinstance(v, int) and not isinstance(v, bool)}
    table.update(EXTRA_PARAMETERS)
    table.update(EXTRA_VALUES)
    return table


_SKIP = ("_FIRST", "_LAST", "_LAST_USED", "_CURRENT_VERSION", "_MASK")
_SKIP_VALUES = ("_LAST_USED", "_CURRENT_VERSION", "_MASK")


#: Parameter id ranges in the order amqsevt looks names up (MQIA, MQCA, then the rest).
_ID_RANGES = ((1, 999), (2001, 2999), (1001, 1499), (3001, 3499), (1501, 1999),
              (3501, 3999), (7001, 7999), (8001, 8999))


@cache
def _parameter_tables() -> tuple[dict[int, str], dict[str, tuple[int, ...]]]:
    """(id -> amqsevt name, amqsevt name -> candidate ids in preference order)."""
    by_id: dict[int, str] = {}
    by_name: dict[str, list[int]] = {}
    families = (*PARAMETER_FAMILIES, "MQGA")
    for name, value in _constants().items():
        family = name.split("_", 1)[0]
        if family not in families or name.endswith(_SKIP):
            continue
        pretty = pretty_name(name)
        # MQIA before MQIACF etc.: the shortest family first, as amqsevt looks them up
        rank = (families.index(family) if family in families else 99)
        current = by_id.get(value)
        if current is None or rank < current[1]:
            by_id[value] = (pretty, rank)  # type: ignore[assignment]
        ids = by_name.setdefault(pretty, [])
        if value not in ids:
            ids.append(value)
    def rank_of(pid: int) -> int:
        for i, (low, high) in enumerate(_ID_RANGES):
            if low <= pid <= high:
                return i
        return 99

    ids_of = {k: tuple(sorted(v, key=rank_of)) for k, v in by_name.items()}
    names = {k: v[0] for k, v in by_id.items()}  # type: ignore[index]
    # a few ids have several constants; amqsevt uses these
    names[mqc.MQIACF_ERROR_ID] = "errorId"
    return names, ids_of


def parameter_json_name(parameter: int) -> str:
    """amqsevt's name for a parameter id (the number as text when unknown)."""
    return _parameter_tables()[0].get(parameter, str(parameter))


def parameter_ids(json_name: str) -> tuple[int, ...]:
    """The parameter ids amqsevt spells `json_name`, most likely first (may be empty)."""
    if json_name.isascii() and json_name.isdigit():
        return (int(json_name),)
    return _parameter_tables()[1].get(json_name, ())


@cache
def _value_tables(parameter: int) -> tuple[dict[int, str], dict[str, int]]:
    prefixes = VALUE_SPELLING.get(parameter, ())
    to_text: dict[int, str] = {}
    for prefix in prefixes:
        for name, value in _constants().items():
            if (name == prefix or (prefix.endswith("_") and name.startswith(prefix))) \
                    and not name.endswith(_SKIP_VALUES):
                to_text.setdefault(value, pretty_value(name))
    return to_text, {text: value for value, text in to_text.items()}


@cache
def _constant_tables(parameter: int) -> dict[int, str]:
    prefixes = VALUE_SPELLING.get(parameter, ())
    out: dict[int, str] = {}
    for prefix in prefixes:
        for name, value in _constants().items():
            if (name == prefix or (prefix.endswith("_") and name.startswith(prefix))) \
                    and not name.endswith(_SKIP_VALUES):
                out.setdefault(value, name)
    return out


def value_constant(parameter: int, value: int) -> int | str:
    """An integer parameter's value as the MQ constant amqsevt -d prints ('MQAT_UNIX'),
    hex text for error identifiers, else the number."""
    if parameter in HEX_PARAMETERS:
        return spell_value(parameter, value)
    return _constant_tables(parameter).get(value, value)


def spell_value(parameter: int, value: int) -> int | str:
    """An integer parameter's value as amqsevt prints it (text, hex text or the number)."""
    if parameter in HEX_PARAMETERS:
        return f"0x{value & 0xFFFFFFFF:08X}".replace("0X", "0x")
    return _value_tables(parameter)[0].get(value, value)


def read_value(parameter: int, shown: object) -> int | None:
    """The integer behind amqsevt's spelling of a value, or None when it is not one."""
    if isinstance(shown, bool):
        return None
    if isinstance(shown, int):
        return shown
    if isinstance(shown, str):
        if parameter in HEX_PARAMETERS and shown.lower().startswith("0x"):
            try:
                raw = int(shown, 16)
            except ValueError:
                return None
            return raw - (1 << 32) if raw >= 1 << 31 else raw
        return _value_tables(parameter)[1].get(shown)
    return None


def is_integer_parameter(parameter: int) -> bool:
    """True when the id is in an integer family (MQIA, MQIACF, MQIACH, MQIAMO)."""
    return 1 <= parameter <= 2000 or parameter in VALUE_SPELLING


def event_type_name(command: int) -> str:
    """amqsevt's eventType name: MQCMD_PERFM_EVENT -> 'Perfm Event'."""
    return _family_text("MQCMD_", command)


def reason_name(reason: int) -> str:
    """amqsevt's eventReason name: MQRC_Q_FULL -> 'Queue Full'."""
    return _family_text("MQRC_", reason)


@cache
def _family(prefix: str) -> tuple[dict[int, str], dict[str, int]]:
    to_text: dict[int, str] = {}
    for name, value in _constants().items():
        if name.startswith(prefix) and not name.endswith(_SKIP_VALUES):
            to_text.setdefault(value, pretty_value(name))
    return to_text, {t: v for v, t in to_text.items()}


def _family_text(prefix: str, value: int) -> str:
    return _family(prefix)[0].get(value, str(value))


def family_value(prefix: str, text: str) -> int | None:
    """The value of a family member from its amqsevt spelling ('MQRC_', 'Queue Full')."""
    return _family(prefix)[1].get(text)
