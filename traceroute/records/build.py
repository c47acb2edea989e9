"""Build activity data as MQ writes it: Operation and Activity groups, activity reports."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter

from pcf import fastencode, mqc
from pcf.fastencode import encode_fast
from pcf.model import EmbeddedHeader, Group, Header, Integer, Message, Parameter, String
from pcf.mqmd import MQMD
from traceroute.records.descriptor import FIELDS, md_group

#: CCSID of the strings our generated reports carry (MQEPH_CCSID_EMBEDDED is always set).
REPORT_CCSID = 819

_MD_NAMES = tuple(f.name for f in fields(MQMD))
_md_values = attrgetter(*_MD_NAMES)
_VERSION = _MD_NAMES.index("version")
_MD_INDEX = {name: i for i, name in enumerate(_MD_NAMES)}
_EMBEDDED_PCF = mqc.MQFMT_EMBEDDED_PCF.rstrip()


class _LazyGroup(Group):
    """A Group whose members are made on first access (`_members_now`) from values it keeps:
    equal to the Group of those members, and pickled, copied and printed as it."""

    __slots__ = ("_members",)

    def _members_now(self) -> list[Parameter]:
        raise NotImplementedError

    @property
    def parameters(self) -> list[Parameter]:
        """The members (made on first access)."""
        members = self._members
        if members is None:
            members = self._members = self._members_now()
        return members

    @parameters.setter
    def parameters(self, members: list[Parameter]) -> None:
        self._members = members

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Group):
            return self.parameter == other.parameter and self.parameters == other.parameters
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (as Group's)

    def __repr__(self) -> str:
        return repr(Group(self.parameter, self.parameters))

    def __reduce__(self) -> tuple:
        return (Group, (self.parameter, self.parameters))


class MDGroup(_LazyGroup):
    """`md_group(md, group=..., ccsid=..., subset=...)`, kept as the MQMD's values.

    Equal to that group (and pickled, copied, printed as it); its members are made on first
    access, and `pcf.fastencode.encode_fast` writes the group straight from the values, the
    same bytes as `pcf.encode` writes for the members. The values are read when it is made,
    so a later change to the MQMD does not show.
    """

    __slots__ = ("ccsid", "subset", "values")

    def __init__(self, md: MQMD, group: int = mqc.MQGACF_MQMD, ccsid: int = 819,
                 subset: bool = False) -> None:
        self.parameter = group
        self.values = _md_values(md)
        self.ccsid = ccsid
        self.subset = subset
        self._members: list[Parameter] | None = None

    def _members_now(self) -> list[Parameter]:
        """The members, as md_group makes them."""
        return md_group(MQMD(*self.values), group=self.parameter, ccsid=self.ccsid,
                        subset=self.subset).parameters


# (subset, version < 2) -> (index in the MQMD's values or None for StrucId, class, id, width)
_LAYOUTS: dict[tuple[bool, bool], tuple[tuple[int | None, type, int, int], ...]] = {}
_md_bytes: dict[tuple, bytes] = {}


def _layout(subset: bool, v1: bool) -> tuple[tuple[int | None, type, int, int], ...]:
    rows = _LAYOUTS.get((subset, v1))
    if rows is None:
        rows = _LAYOUTS[subset, v1] = tuple(
            (None if name == "struc_id" else _MD_NAMES.index(name), cls, pid, width)
            for name, pid, cls, width, category in FIELDS
            if not (subset and category != "B") and not (category == "C" and v1))
    return rows


def _write_md_group(par: MDGroup, order: str, message_ccsid: int) -> bytes:
    """The MQCFGR and members pcf.encode writes for `par`, from its values (cached)."""
    return _md_group_bytes(par.values, par.parameter, par.ccsid, par.subset, order,
                           message_ccsid)


def _md_group_bytes(values: tuple, group: int, ccsid: int, subset: bool, order: str,
                    message_ccsid: int) -> bytes:
    """What pcf.encode writes for md_group(MQMD(*values), group, ccsid, subset) (cached)."""
    key = (values, group, ccsid, subset, order, message_ccsid)
    try:
        raw = _md_bytes.get(key)
    except TypeError:  # an unhashable value: pcf.encode's way, and its error
        return fastencode.parameter_bytes(md_group(MQMD(*values), group=group, ccsid=ccsid,
                                                   subset=subset), order, message_ccsid)
    if raw is not None:
        return raw
    rows = _layout(subset, values[_VERSION] < 2)
    four = fastencode.layouts(order).four.pack
    text = fastencode.string_bytes
    out = [four(20, 16, group, len(rows))]
    for index, cls, pid, width in rows:
        if cls is Integer:
            out.append(four(3, 16, pid, values[index]))
        elif cls is String:
            out.append(text(order, pid, "MD" if index is None else values[index], ccsid, width,
                            message_ccsid))
        else:
            out.append(fastencode.byte_string(order, pid, values[index]))
    raw = b"".join(out)
    if len(_md_bytes) >= fastencode.CACHE_LIMIT:
        _md_bytes.clear()
    _md_bytes[key] = raw
    return raw


fastencode.register(MDGroup, _write_md_group)


def _text(pid: int, value: str, width: int) -> String:
    return String(pid, value, REPORT_CCSID, width)


class OperationGroup(_LazyGroup):
    """`operation_group(...)`'s group, kept as its arguments (the MQMDs' values read at once).

    Equal to the Group of its members (and pickled, copied, printed as it); the members are
    made on first access, and `pcf.fastencode.encode_fast` writes the group straight from
    the arguments, the bytes `pcf.encode` writes for the members (once the members were
    read, and so may have been changed, from them).
    """

    __slots__ = ("values",)

    def __init__(self, values: tuple) -> None:
        self.parameter = mqc.MQGACF_OPERATION
        self.values = values
        self._members: list[Parameter] | None = None

    def _members_now(self) -> list[Parameter]:
        """The members, as operation_group makes them."""
        return _operation_members(*self.values)


def _write_operation_group(par: OperationGroup, order: str, message_ccsid: int) -> bytes:
    """The MQCFGR and members pcf.encode writes for `par`, from its arguments."""
    if par._members is not None:
        return fastencode.parameter_bytes(Group(par.parameter, par._members), order,
                                          message_ccsid)
    op_type, date, time, qmgr, md, msg_length, embedded, details, qsg = par.values
    four = fastencode.layouts(order).four.pack
    text = fastencode.string_bytes
    count = 4 + (md is not None) + bool(qsg) + len(details)
    out = [four(20, 16, mqc.MQGACF_OPERATION, count),
           four(3, 16, mqc.MQIACF_OPERATION_TYPE, op_type),
           text(order, mqc.MQCACF_OPERATION_DATE, date, REPORT_CCSID, 12, message_ccsid),
           text(order, mqc.MQCACF_OPERATION_TIME, time, REPORT_CCSID, 8, message_ccsid)]
    if md is not None:
        out.append(four(20, 16, mqc.MQGACF_MESSAGE, 2 if embedded is None else 3))
        out.append(four(3, 16, mqc.MQIACF_MSG_LENGTH, msg_length))
        out.append(_md_group_bytes(md, mqc.MQGACF_MQMD, REPORT_CCSID,
                                   op_type in _SUBSET_TYPES, order, message_ccsid))
        if embedded is not None:
            out.append(_md_group_bytes(embedded, mqc.MQGACF_EMBEDDED_MQMD, REPORT_CCSID,
                                       False, order, message_ccsid))
    out.append(text(order, mqc.MQCA_Q_MGR_NAME, qmgr, REPORT_CCSID, 48, message_ccsid))
    if qsg:
        out.append(text(order, mqc.MQCA_QSG_NAME, qsg, REPORT_CCSID, 4, message_ccsid))
    for p in details:
        cls = type(p)
        if cls is Integer:
            out.append(four(3, 16, p.parameter, p.value))
        elif cls is String:
            out.append(text(order, p.parameter, p.value, p.ccsid, p.width, message_ccsid))
        else:
            out.append(fastencode.parameter_bytes(p, order, message_ccsid))
    return b"".join(out)


fastencode.register(OperationGroup, _write_operation_group)
_SUBSET_TYPES = (mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH)


def operation_group(op_type: int, *, date: str, time: str, qmgr: str, md: MQMD | None,
                    msg_length: int = 0, embedded: MQMD | None = None,
                    details: list[Parameter] = (), qsg: str | None = None) -> Group:
    """One Operation group: type, date, time, Message (MQMD, EmbeddedMQMD), QMgrName, details."""
    return OperationGroup((op_type, date, time, qmgr,
                           None if md is None else _md_values(md), msg_length,
                           None if embedded is None else _md_values(embedded),
                           tuple(details), qsg))


def _operation_members(op_type: int, date: str, time: str, qmgr: str, md: tuple | None,
                       msg_length: int, embedded: tuple | None, details: tuple[Parameter, ...],
                       qsg: str | None) -> list[Parameter]:
    """operation_group's members (the MQMDs as their values)."""
    members: list[Parameter] = [
        Integer(mqc.MQIACF_OPERATION_TYPE, op_type),
        _text(mqc.MQCACF_OPERATION_DATE, date, 12),
        _text(mqc.MQCACF_OPERATION_TIME, time, 8),
    ]
    if md is not None:
        subset = op_type in _SUBSET_TYPES
        message = [Integer(mqc.MQIACF_MSG_LENGTH, msg_length),
                   MDGroup(MQMD(*md), ccsid=REPORT_CCSID, subset=subset)]
        if embedded is not None:
            message.append(MDGroup(MQMD(*embedded), group=mqc.MQGACF_EMBEDDED_MQMD,
                                   ccsid=REPORT_CCSID))
        members.append(Group(mqc.MQGACF_MESSAGE, message))
    members.append(_text(mqc.MQCA_Q_MGR_NAME, qmgr, 48))
    if qsg:
        members.append(_text(mqc.MQCA_QSG_NAME, qsg, 4))
    members.extend(details)
    return members


def activity_group(*, appl_name: str, appl_type: int, description: str,
                   operations: list[Group], trace_route: Group | None = None,
                   extra: list[Parameter] = ()) -> Group:
    """One Activity group: application, description, its operations, TraceRoute, extras."""
    members: list[Parameter] = [
        _text(mqc.MQCACF_APPL_NAME, appl_name, 28),
        Integer(mqc.MQIA_APPL_TYPE, appl_type),
        _text(mqc.MQCACF_ACTIVITY_DESC, description, 64),
        *operations,
    ]
    if trace_route is not None:
        members.append(trace_route)
    members.extend(extra)
    return Group(mqc.MQGACF_ACTIVITY, members)


def report_descriptor(original: MQMD, *, qmgr: str, msg_id: bytes, put_date: str,
                      put_time: str, encoding: int = mqc.MQENC_REVERSED,
                      ccsid: int = REPORT_CCSID) -> MQMD:
    """The MQMD of an activity report about `original`, generated by `qmgr` (its message
    data written in `encoding` and CodedCharSetId `ccsid`)."""
    report = mqc.MQRO_NONE
    expiry = mqc.MQEI_UNLIMITED
    if original.report & mqc.MQRO_PASS_DISCARD_AND_EXPIRY:
        expiry = original.expiry
        if original.report & mqc.MQRO_DISCARD_MSG:
            report = mqc.MQRO_DISCARD_MSG
    pass_msg_id = original.report & mqc.MQRO_PASS_MSG_ID
    pass_correl = original.report & mqc.MQRO_PASS_CORREL_ID
    values = list(_md_values(original))  # dataclasses.replace, without its keyword round trip
    for i, value in zip(_REPORT_FIELDS, (
            report, mqc.MQMT_REPORT, expiry, mqc.MQFB_ACTIVITY, encoding, ccsid,
            _EMBEDDED_PCF, original.msg_id if pass_msg_id else msg_id,
            original.correl_id if pass_correl else original.msg_id, 0, "", qmgr,
            mqc.MQAT_QMGR, qmgr[:28], put_date, put_time, ""), strict=True):
        values[i] = value
    return MQMD(*values)


#: The MQMD fields report_descriptor sets, in the order it lists their values.
_REPORT_FIELDS = tuple(_MD_INDEX[name] for name in (
    "report", "msg_type", "expiry", "feedback", "encoding", "coded_char_set_id", "format",
    "msg_id", "correl_id", "backout_count", "reply_to_q", "reply_to_q_mgr", "put_appl_type",
    "put_appl_name", "put_date", "put_time", "appl_origin_data"))


def activity_report(activity: Group) -> Message:
    """An activity report's PCF: MQEPH (CCSID embedded) + MQCFH REPORT/ACTIVITY_MSG + group."""
    return Message(Header(mqc.MQCFT_REPORT, mqc.MQCMD_ACTIVITY_MSG), [activity],
                   EmbeddedHeader(0, 0, "", mqc.MQEPH_CCSID_EMBEDDED),
                   encoding=mqc.MQENC_REVERSED, ccsid=REPORT_CCSID)


def encode_report(md: MQMD, message: Message) -> bytes:
    """The report's message data, written in the byte order and CCSID its MQMD announces."""
    return encode_fast(message, encoding=md.encoding, ccsid=md.coded_char_set_id)
