"""The typed PCF tree: headers, parameter structures, groups and whole messages."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from pcf import mqc
from pcf.names import parameter_name

#: Friendly names of the groups people meet in activity data, used in error paths and display.
GROUP_LABELS: dict[int, str] = {
    mqc.MQGACF_COMMAND_CONTEXT: "CommandContext",
    mqc.MQGACF_COMMAND_DATA: "CommandData",
    mqc.MQGACF_TRACE_ROUTE: "TraceRoute",
    mqc.MQGACF_OPERATION: "Operation",
    mqc.MQGACF_ACTIVITY: "Activity",
    mqc.MQGACF_EMBEDDED_MQMD: "EmbeddedMQMD",
    mqc.MQGACF_MESSAGE: "Message",
    mqc.MQGACF_MQMD: "MQMD",
    mqc.MQGACF_VALUE_NAMING: "ValueNaming",
    mqc.MQGACF_Q_ACCOUNTING_DATA: "QAccountingData",
    mqc.MQGACF_Q_STATISTICS_DATA: "QStatisticsData",
    mqc.MQGACF_CHL_STATISTICS_DATA: "ChlStatisticsData",
    mqc.MQGACF_ACTIVITY_TRACE: "ActivityTrace",
}


class _Container:
    """Lookup helpers shared by groups and messages (members in `parameters`)."""

    __slots__ = ()
    parameters: list[Parameter]

    def find(self, parameter: int) -> Parameter | None:
        """The first direct member with this parameter id, or None."""
        for p in self.parameters:
            if p.parameter == parameter:
                return p
        return None

    def find_all(self, parameter: int) -> list[Parameter]:
        """Every direct member with this parameter id, in order."""
        return [p for p in self.parameters if p.parameter == parameter]

    def get(self, parameter: int, default: object = None) -> object:
        """The value of the first direct member with this id (a group: the group), or default."""
        p = self.find(parameter)
        if p is None:
            return default
        return p if isinstance(p, Group) else p.value

    def walk(self) -> Iterator[tuple[int, Parameter]]:
        """Every parameter below, depth first, with its depth (0 = direct member)."""
        stack = [(0, p) for p in reversed(self.parameters)]
        while stack:
            depth, p = stack.pop()
            yield depth, p
            if isinstance(p, Group):
                stack.extend((depth + 1, c) for c in reversed(p.parameters))


@dataclass(slots=True)
class Parameter:
    """One PCF parameter structure; subclasses carry the value of each structure type."""

    TYPE: ClassVar[int] = 0
    STRUCTURE: ClassVar[str] = "?"
    parameter: int

    @property
    def name(self) -> str:
        """The MQ constant name of the parameter id, or the number when unknown."""
        return parameter_name(self.parameter) or str(self.parameter)


@dataclass(slots=True)
class Integer(Parameter):
    """MQCFIN: a 32-bit signed integer."""

    TYPE: ClassVar[int] = mqc.MQCFT_INTEGER
    STRUCTURE: ClassVar[str] = "MQCFIN"
    value: int = 0


@dataclass(slots=True)
class Integer64(Parameter):
    """MQCFIN64: a 64-bit signed integer."""

    TYPE: ClassVar[int] = mqc.MQCFT_INTEGER64
    STRUCTURE: ClassVar[str] = "MQCFIN64"
    value: int = 0


@dataclass(slots=True)
class String(Parameter):
    """MQCFST: a character string; `value` is bytes when its CCSID could not be decoded.

    `ccsid` 0 means the message's CCSID. `width` is the declared field length when the
    string came blank-padded (MQ padding, not data): kept so re-encoding is byte-exact.
    """

    TYPE: ClassVar[int] = mqc.MQCFT_STRING
    STRUCTURE: ClassVar[str] = "MQCFST"
    value: str | bytes = ""
    ccsid: int = 0
    width: int | None = field(default=None, compare=False)

    @property
    def decoded(self) -> bool:
        """False when the bytes are kept raw because their CCSID is unknown or invalid."""
        return isinstance(self.value, str)


@dataclass(slots=True)
class ByteString(Parameter):
    """MQCFBS: a byte string (MsgId, CorrelId ...), never converted."""

    TYPE: ClassVar[int] = mqc.MQCFT_BYTE_STRING
    STRUCTURE: ClassVar[str] = "MQCFBS"
    value: bytes = b""


@dataclass(slots=True)
class IntegerList(Parameter):
    """MQCFIL: a list of 32-bit integers."""

    TYPE: ClassVar[int] = mqc.MQCFT_INTEGER_LIST
    STRUCTURE: ClassVar[str] = "MQCFIL"
    value: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Integer64List(Parameter):
    """MQCFIL64: a list of 64-bit integers."""

    TYPE: ClassVar[int] = mqc.MQCFT_INTEGER64_LIST
    STRUCTURE: ClassVar[str] = "MQCFIL64"
    value: list[int] = field(default_factory=list)


@dataclass(slots=True)
class StringList(Parameter):
    """MQCFSL: strings of one declared length; items are bytes where undecodable."""

    TYPE: ClassVar[int] = mqc.MQCFT_STRING_LIST
    STRUCTURE: ClassVar[str] = "MQCFSL"
    value: list[str | bytes] = field(default_factory=list)
    ccsid: int = 0
    width: int | None = field(default=None, compare=False)


@dataclass(slots=True)
class IntegerFilter(Parameter):
    """MQCFIF: an integer filter condition (operator is an MQCFOP_* value)."""

    TYPE: ClassVar[int] = mqc.MQCFT_INTEGER_FILTER
    STRUCTURE: ClassVar[str] = "MQCFIF"
    operator: int = mqc.MQCFOP_EQUAL
    value: int = 0


@dataclass(slots=True)
class StringFilter(Parameter):
    """MQCFSF: a string filter condition; `value` is bytes where undecodable."""

    TYPE: ClassVar[int] = mqc.MQCFT_STRING_FILTER
    STRUCTURE: ClassVar[str] = "MQCFSF"
    operator: int = mqc.MQCFOP_EQUAL
    value: str | bytes = ""
    ccsid: int = 0


@dataclass(slots=True)
class ByteStringFilter(Parameter):
    """MQCFBF: a byte-string filter condition."""

    TYPE: ClassVar[int] = mqc.MQCFT_BYTE_STRING_FILTER
    STRUCTURE: ClassVar[str] = "MQCFBF"
    operator: int = mqc.MQCFOP_EQUAL
    value: bytes = b""


@dataclass(slots=True)
class Group(_Container, Parameter):
    """MQCFGR: a group whose members are the next ParameterCount structures."""

    TYPE: ClassVar[int] = mqc.MQCFT_GROUP
    STRUCTURE: ClassVar[str] = "MQCFGR"
    parameters: list[Parameter] = field(default_factory=list)

    @property
    def label(self) -> str:
        """A short name for the group (Activity, Operation ...), else its MQ name."""
        return GROUP_LABELS.get(self.parameter) or self.name


def freeze(p: Parameter) -> tuple:
    """A hashable value equal for equal parameters: structure, id and contents, groups whole.

    Parameters are mutable (a decoded tree can be edited), so they do not hash; values that
    carry them (an unknown parameter kept in an Operation) hash this instead.
    """
    if isinstance(p, Group):
        return (p.TYPE, p.parameter, tuple(freeze(c) for c in p.parameters))
    value = p.value
    if isinstance(value, list):
        value = tuple(value)
    return (p.TYPE, p.parameter, value, getattr(p, "operator", None), getattr(p, "ccsid", None))


PARAMETER_TYPES: dict[int, type[Parameter]] = {
    cls.TYPE: cls for cls in (Integer, Integer64, String, ByteString, IntegerList,
                              Integer64List, StringList, IntegerFilter, StringFilter,
                              ByteStringFilter, Group)
}


@dataclass(slots=True)
class Header:
    """MQCFH: the PCF header (its ParameterCount is the length of the message's list)."""

    type: int
    command: int
    msg_seq_number: int = 1
    control: int = mqc.MQCFC_LAST
    comp_code: int = mqc.MQCC_OK
    reason: int = mqc.MQRC_NONE
    version: int = mqc.MQCFH_VERSION_3


@dataclass(slots=True)
class EmbeddedHeader:
    """MQEPH: describes the user data after the PCF block (its MQCFH is the message header)."""

    encoding: int = 0
    ccsid: int = 0
    format: str = ""
    flags: int = mqc.MQEPH_CCSID_EMBEDDED
    version: int = mqc.MQEPH_VERSION_1


@dataclass(slots=True)
class Message(_Container):
    """A decoded PCF message: MQCFH, optional MQEPH, parameters, and trailing user data.

    `encoding` and `ccsid` record how the PCF block was (or will be) written; they are
    representation, not content, and do not take part in equality.
    """

    header: Header
    parameters: list[Parameter] = field(default_factory=list)
    eph: EmbeddedHeader | None = None
    user_data: bytes = b""
    encoding: int = field(default=mqc.MQENC_REVERSED, compare=False)
    ccsid: int = field(default=1208, compare=False)

    @property
    def parameter_count(self) -> int:
        """MQCFH.ParameterCount: the number of top-level structures."""
        return len(self.parameters)

