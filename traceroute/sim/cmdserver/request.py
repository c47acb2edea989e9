"""A PCF command's parameters as the command server checks them, and how it refuses one."""

from __future__ import annotations

from pcf import mqc
from pcf.model import (
    Integer,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)

_NAME_LIMIT = {mqc.MQCACH_CHANNEL_NAME: 20}


class Fail(Exception):
    """A command that fails: its reason and the error response's parameters."""

    def __init__(self, reason: int, *parameters: Parameter) -> None:
        super().__init__(reason)
        self.reason = reason
        self.parameters = list(parameters)


def param_error(p: Parameter, kind: str) -> Fail:
    code = {Integer: f"MQRCCF_CFIN_{kind}", IntegerList: f"MQRCCF_CFIL_{kind}",
            String: f"MQRCCF_CFST_{kind}", StringList: f"MQRCCF_CFSL_{kind}",
            IntegerFilter: f"MQRCCF_CFIF_{kind}",
            StringFilter: f"MQRCCF_CFSF_{kind}"}.get(type(p), f"MQRCCF_CFST_{kind}")
    if kind == "DUPLICATE_PARM" and code.startswith(("MQRCCF_CFIF", "MQRCCF_CFSF")):
        code = "MQRCCF_TOO_MANY_FILTERS"
    reason = getattr(mqc, code, mqc.MQRCCF_PARM_SYNTAX_ERROR)
    return Fail(reason, Integer(mqc.MQIACF_PARAMETER_ID, p.parameter))


class Request:
    """A command's parameters, checked: the ones it takes, each once, the required ones."""

    def __init__(self, message: Message, required: tuple[int, ...], optional: tuple[int, ...],
                 filters: frozenset[int] = frozenset()) -> None:
        self.by_id: dict[int, Parameter] = {}
        self.where: Parameter | None = None
        allowed = set(required) | set(optional)
        for p in message.parameters:
            if isinstance(p, (IntegerFilter, StringFilter)) and filters:
                if self.where is not None:
                    raise Fail(mqc.MQRCCF_TOO_MANY_FILTERS)
                if p.parameter not in filters:
                    raise param_error(p, "PARM_ID_ERROR")
                self.where = p
                continue
            if p.parameter not in allowed:
                raise param_error(p, "PARM_ID_ERROR")
            if p.parameter in self.by_id:
                raise param_error(p, "DUPLICATE_PARM")
            self.by_id[p.parameter] = p
        for pid in required:
            if pid not in self.by_id:
                raise Fail(mqc.MQRCCF_PARM_COUNT_TOO_SMALL,
                            Integer(mqc.MQIACF_PARAMETER_ID, pid))

    def text(self, pid: int, default: str = "") -> str:
        p = self.by_id.get(pid)
        if p is None:
            return default
        if not isinstance(p, String):
            raise param_error(p, "PARM_ID_ERROR")
        value = p.value.decode("latin-1") if isinstance(p.value, bytes) else p.value
        value = value.rstrip(" \x00")
        if len(value) > _NAME_LIMIT.get(pid, 48):
            raise Fail(mqc.MQRCCF_CFST_STRING_LENGTH_ERR,
                        Integer(mqc.MQIACF_PARAMETER_ID, pid))
        return value

    def number(self, pid: int, default: int) -> int:
        p = self.by_id.get(pid)
        if p is None:
            return default
        if not isinstance(p, Integer):
            raise param_error(p, "PARM_ID_ERROR")
        return p.value

    def selected(self, pid: int) -> set[int] | None:
        """The attributes asked for (None: all)."""
        p = self.by_id.get(pid)
        if p is None:
            return None
        if not isinstance(p, IntegerList):
            raise param_error(p, "PARM_ID_ERROR")
        return None if mqc.MQIACF_ALL in p.value else set(p.value)
