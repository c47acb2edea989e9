"""An MQMD as the PCF group activity data carries it (MQGACF_MQMD / EMBEDDED_MQMD), and back."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

from pcf import mqc
from pcf.model import ByteString, Group, Integer, Parameter, String
from pcf.mqmd import MQMD

# (MQMD field, parameter id, structure, MQ field length, category per the activity-report spec)
# Category A: always; B: also in the subset of Publish/DiscardedPublish; C: version 2 only.
FIELDS: tuple[tuple[str, int, type, int, str], ...] = (
    ("struc_id", mqc.MQCACF_STRUC_ID, String, 4, "A"),
    ("version", mqc.MQIACF_VERSION, Integer, 0, "A"),
    ("report", mqc.MQIACF_REPORT, Integer, 0, "A"),
    ("msg_type", mqc.MQIACF_MSG_TYPE, Integer, 0, "A"),
    ("expiry", mqc.MQIACF_EXPIRY, Integer, 0, "A"),
    ("feedback", mqc.MQIACF_FEEDBACK, Integer, 0, "A"),
    ("encoding", mqc.MQIACF_ENCODING, Integer, 0, "A"),
    ("coded_char_set_id", mqc.MQIA_CODED_CHAR_SET_ID, Integer, 0, "A"),
    ("format", mqc.MQCACH_FORMAT_NAME, String, 8, "B"),
    ("priority", mqc.MQIACF_PRIORITY, Integer, 0, "B"),
    ("persistence", mqc.MQIACF_PERSISTENCE, Integer, 0, "B"),
    ("msg_id", mqc.MQBACF_MSG_ID, ByteString, 24, "B"),
    ("correl_id", mqc.MQBACF_CORREL_ID, ByteString, 24, "B"),
    ("backout_count", mqc.MQIACF_BACKOUT_COUNT, Integer, 0, "A"),
    ("reply_to_q", mqc.MQCACF_REPLY_TO_Q, String, 48, "A"),
    ("reply_to_q_mgr", mqc.MQCACF_REPLY_TO_Q_MGR, String, 48, "A"),
    ("user_identifier", mqc.MQCACF_USER_IDENTIFIER, String, 12, "B"),
    ("accounting_token", mqc.MQBACF_ACCOUNTING_TOKEN, ByteString, 32, "B"),
    ("appl_identity_data", mqc.MQCACF_APPL_IDENTITY_DATA, String, 32, "B"),
    ("put_appl_type", mqc.MQIA_APPL_TYPE, Integer, 0, "A"),
    ("put_appl_name", mqc.MQCACF_APPL_NAME, String, 28, "A"),
    ("put_date", mqc.MQCACF_PUT_DATE, String, 8, "A"),
    ("put_time", mqc.MQCACF_PUT_TIME, String, 8, "A"),
    ("appl_origin_data", mqc.MQCACF_APPL_ORIGIN_DATA, String, 4, "A"),
    ("group_id", mqc.MQBACF_GROUP_ID, ByteString, 24, "C"),
    ("msg_seq_number", mqc.MQIACH_MSG_SEQUENCE_NUMBER, Integer, 0, "C"),
    ("offset", mqc.MQIACF_OFFSET, Integer, 0, "C"),
    ("msg_flags", mqc.MQIACF_MSG_FLAGS, Integer, 0, "C"),
    ("original_length", mqc.MQIACF_ORIGINAL_LENGTH, Integer, 0, "C"),
)


def md_group(md: MQMD, *, group: int = mqc.MQGACF_MQMD, ccsid: int = 819,
             subset: bool = False) -> Group:
    """The MQMD as an MQCFGR of its fields; `subset` keeps only category B (publish)."""
    members: list[Parameter] = []
    for name, pid, cls, width, category in FIELDS:
        if subset and category != "B":
            continue
        if category == "C" and md.version < 2:
            continue
        if cls is String:
            value = "MD" if name == "struc_id" else getattr(md, name)
            members.append(String(pid, value, ccsid, width))
        else:
            members.append(cls(pid, getattr(md, name)))
    return Group(group, members)


#: parameter id -> (MQMD field, structure) of the fields md_from_group reads (not StrucId).
_BY_ID: dict[int, tuple[str, type]] = {
    pid: (name, cls) for name, pid, cls, _w, _c in FIELDS if name != "struc_id"}


def md_from_group(group: Group) -> MQMD:
    """An MQMD from an MQMD/EmbeddedMQMD group; fields absent from the group keep defaults."""
    values: dict[str, object] = {}
    by_id = _BY_ID
    for p in group.parameters:  # one pass; a repeated parameter: its last occurrence decides
        entry = by_id.get(p.parameter)
        if entry is None:
            continue
        name, cls = entry
        if not isinstance(p, cls):
            values.pop(name, None)
            continue
        value = p.value
        if cls is String and isinstance(value, bytes):
            value = value.decode("latin-1").rstrip(" \x00")
        values[name] = value
    return MQMD(**values)


_DEFAULTS = {f.name: f.default for f in dataclass_fields(MQMD)}


def _last_value(group: Group, name: str, pid: int, cls: type) -> object:
    """One field as md_from_group reads it: the last parameter with its id, if of its type."""
    found = None
    for p in group.parameters:
        if p.parameter == pid:
            found = p
    if found is None or not isinstance(found, cls):
        return _DEFAULTS[name]
    value = found.value
    if cls is String and isinstance(value, bytes):
        value = value.decode("latin-1").rstrip(" \x00")
    return value


class LazyMQMD(MQMD):
    """md_from_group's MQMD, read from its group only when asked: MsgId (all the pipeline
    reads) on its own, every other field at the first access of any of them.

    It equals (==) the MQMD md_from_group gives, and behaves as one (fields, replace, pickle).
    """

    __slots__ = ("_group",)

    def __new__(cls, *args: object, **kwargs: object) -> MQMD:
        if len(args) == 1 and not kwargs and isinstance(args[0], Group):
            return object.__new__(cls)
        return MQMD(*args, **kwargs)  # dataclasses.replace(lazy, ...): a plain MQMD

    def __init__(self, group: Group) -> None:
        self._group = group

    def __getattr__(self, name: str) -> object:
        if name not in _DEFAULTS:
            raise AttributeError(name)
        group = self._group
        if name == "msg_id":
            value = _last_value(group, name, mqc.MQBACF_MSG_ID, ByteString)
            self.msg_id = value
            return value
        full = md_from_group(group)
        for field_name in _DEFAULTS:
            try:
                object.__getattribute__(self, field_name)
            except AttributeError:
                setattr(self, field_name, getattr(full, field_name))
        return getattr(full, name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MQMD):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _DEFAULTS)

    __hash__ = None  # type: ignore[assignment]  (as MQMD's: mutable, compared by value)

    def __reduce__(self):
        return (MQMD, tuple(getattr(self, n) for n in _DEFAULTS))

    def __repr__(self) -> str:
        return repr(self.__copy__())

    def __copy__(self) -> MQMD:
        return MQMD(*(getattr(self, n) for n in _DEFAULTS))

    def __deepcopy__(self, memo: dict) -> MQMD:
        return self.__copy__()
