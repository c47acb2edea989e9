"""The command server's commands that define: Change, Create and Copy Queue, Change, Create
and Copy Channel, and Change Queue Manager.

Each is applied as runmqsc applies the MQSC command it stands for (ALTER, DEFINE, DEFINE
... LIKE; `traceroute.sim.mqsc.Session`), after its parameters are checked as IBM's
command server checks them: a parameter the command does not take is
MQRCCF_CFIN/CFST_PARM_ID_ERROR, one given twice MQRCCF_*_DUPLICATE_PARM, and a number
outside the range MQ documents for it (`traceroute.status.attributes.numbers`), or one that
stands for none of a word attribute's words (`words`: DefPersistence 7, NonPersistentMsgSpeed
9 ...), the reason IBM's PCF reference names for that parameter (MQRCCF_BATCH_SIZE_ERROR,
MQRCCF_DISC_INT_ERROR, MQRCCF_NPM_SPEED_ERROR ... or MQRCCF_PARM_VALUE_ERROR), with
MQIACF_PARAMETER_ID naming it.
Then: an object not found is MQRC_UNKNOWN_OBJECT_NAME (queues) or
MQRCCF_CHANNEL_NOT_FOUND, a name in use MQRCCF_OBJECT_ALREADY_EXISTS (without
MQIACF_REPLACE), a queue of another type MQRCCF_Q_WRONG_TYPE, a channel of another type
MQRCCF_CHANNEL_TYPE_ERROR.
"""

from __future__ import annotations

from pcf import mqc
from pcf.model import Integer, IntegerList, Message, Parameter, String
from traceroute.sim.cmdserver.request import Fail, param_error
from traceroute.sim.mqsc import Command
from traceroute.sim.network import QueueManager
from traceroute.status.attributes import (
    CHANNEL,
    QMGR,
    QUEUE,
    Attribute,
    from_parameters,
    words,
)
from traceroute.status.words import CHANNEL_TYPE, QUEUE_TYPE

#: command -> (MQSC verb, object family)
COMMANDS = {
    mqc.MQCMD_CHANGE_Q: ("ALTER", "QUEUE"), mqc.MQCMD_CREATE_Q: ("DEFINE", "QUEUE"),
    mqc.MQCMD_COPY_Q: ("COPY", "QUEUE"), mqc.MQCMD_CHANGE_CHANNEL: ("ALTER", "CHANNEL"),
    mqc.MQCMD_CREATE_CHANNEL: ("DEFINE", "CHANNEL"),
    mqc.MQCMD_COPY_CHANNEL: ("COPY", "CHANNEL"), mqc.MQCMD_CHANGE_Q_MGR: ("ALTER", "QMGR"),
}
_NAMES = {  # family -> (name, Copy's from-name, Copy's to-name, type parameter)
    "QUEUE": (mqc.MQCA_Q_NAME, mqc.MQCACF_FROM_Q_NAME, mqc.MQCACF_TO_Q_NAME,
              mqc.MQIA_Q_TYPE),
    "CHANNEL": (mqc.MQCACH_CHANNEL_NAME, mqc.MQCACF_FROM_CHANNEL_NAME,
                mqc.MQCACF_TO_CHANNEL_NAME, mqc.MQIACH_CHANNEL_TYPE),
}
_TABLES = {"QUEUE": QUEUE, "CHANNEL": CHANNEL, "QMGR": QMGR}
_OPTIONS = (mqc.MQIACF_REPLACE, mqc.MQIACF_FORCE, mqc.MQCACF_COMMAND_SCOPE)


def command_of(qm: QueueManager, message: Message) -> tuple[str, Command]:
    """(object family, the MQSC command) a Change/Create/Copy command stands for on `qm`;
    Fail with IBM's reason when its parameters are refused."""
    verb, family = COMMANDS[message.header.command]
    table = _TABLES[family]
    by_param = {a.param: a for a in table.values() if not a.readonly}
    given: dict[int, Parameter] = {}
    for p in message.parameters:
        if p.parameter in given:
            raise param_error(p, "DUPLICATE_PARM")
        given[p.parameter] = p
    kind, name, like = _object(qm, family, verb, given)
    checked = words(kind)
    attrs: dict[str, str] = {}
    for pid, p in given.items():
        if pid in _OPTIONS or (family in _NAMES and pid in _NAMES[family]):
            continue
        a = by_param.get(pid)
        if a is None:
            raise param_error(p, "PARM_ID_ERROR")
        _check(a, p, a.keyword in checked)
        value = from_parameters(kind, [p], readonly=False)
        if a.keyword not in value:  # a type MQ does not have for this parameter
            raise param_error(p, "PARM_ID_ERROR")
        attrs.update(value)
    options = {"LIKE": like} if like else {}
    if _flag(given, mqc.MQIACF_REPLACE, mqc.MQRP_YES):
        options["REPLACE"] = ""
    return family, Command("DEFINE" if verb == "COPY" else verb, kind, name,
                           {**attrs, **_type_attr(family, given), **options}, source="PCF")


def refused(family: str, amq: str) -> Fail:
    """The PCF failure of a command runmqsc answered with `amq` (an object not found, a
    name in use ...)."""
    if amq.startswith("AMQ8147E"):
        return Fail(mqc.MQRCCF_CHANNEL_NOT_FOUND if family == "CHANNEL"
                    else mqc.MQRC_UNKNOWN_OBJECT_NAME)
    if amq.startswith("AMQ8150E"):
        return Fail(mqc.MQRCCF_OBJECT_ALREADY_EXISTS)
    if amq.startswith("AMQ8135E"):
        return Fail(mqc.MQRC_NOT_AUTHORIZED)
    return Fail(mqc.MQRCCF_COMMAND_FAILED)


def _check(a: Attribute, p: Parameter, worded: bool) -> None:
    """A number outside the range MQ documents for `a`, or one that stands for none of a
    word attribute's words (`traceroute.status.attributes.words`): IBM's reason for that
    parameter."""
    if worded and isinstance(p, Integer | IntegerList):
        values = p.value if isinstance(p, IntegerList) else [p.value]
        if any(v not in a.words.values() for v in values):
            raise Fail(a.reason, Integer(mqc.MQIACF_PARAMETER_ID, a.param))
        return
    if a.limits is None or not isinstance(p, Integer):
        return
    low, high = a.limits
    if p.value not in a.words.values() and not low <= p.value <= high:
        raise Fail(a.reason, Integer(mqc.MQIACF_PARAMETER_ID, a.param))


def _flag(given: dict[int, Parameter], pid: int, yes: int) -> bool:
    p = given.get(pid)
    if p is None:
        return False
    if not isinstance(p, Integer):
        raise param_error(p, "PARM_ID_ERROR")
    return p.value == yes


def _text(given: dict[int, Parameter], pid: int) -> str:
    p = given.get(pid)
    if p is None:
        raise Fail(mqc.MQRCCF_PARM_COUNT_TOO_SMALL, Integer(mqc.MQIACF_PARAMETER_ID, pid))
    if not isinstance(p, String):
        raise param_error(p, "PARM_ID_ERROR")
    value = p.value.decode("latin-1") if isinstance(p.value, bytes) else p.value
    return value.rstrip(" \x00")


def _type_word(family: str, given: dict[int, Parameter], required: bool) -> str | None:
    pid = _NAMES[family][3]
    p = given.get(pid)
    if p is None:
        if required:
            raise Fail(mqc.MQRCCF_PARM_COUNT_TOO_SMALL, Integer(mqc.MQIACF_PARAMETER_ID, pid))
        return None
    words = QUEUE_TYPE if family == "QUEUE" else CHANNEL_TYPE
    if not isinstance(p, Integer):
        raise param_error(p, "PARM_ID_ERROR")
    word = words.get(p.value)
    if word is None or word == "QCLUSTER":
        raise Fail(mqc.MQRCCF_Q_TYPE_ERROR if family == "QUEUE"
                   else mqc.MQRCCF_CHANNEL_TYPE_ERROR)
    return word


def _type_attr(family: str, given: dict[int, Parameter]) -> dict[str, str]:
    if family != "CHANNEL":
        return {}
    word = _type_word(family, given, required=False)
    return {"CHLTYPE": word} if word else {}


def _object(qm: QueueManager, family: str, verb: str,
            given: dict[int, Parameter]) -> tuple[str, str | None, str]:
    """(kind, name, LIKE's name) of the command, refused as MQ refuses a type mismatch."""
    if family == "QMGR":
        return "QMGR", None, ""
    name_id, from_id, to_id, _ = _NAMES[family]
    like = ""
    if verb == "COPY":
        like, name = _text(given, from_id), _text(given, to_id)
    else:
        name = _text(given, name_id)
    word = _type_word(family, given, required=family == "QUEUE" or verb != "ALTER")
    if family == "QUEUE":
        assert word is not None
        existing = qm.queues.get(name)
        if existing is not None and existing.kind != word and (
                verb == "ALTER" or _flag(given, mqc.MQIACF_REPLACE, mqc.MQRP_YES)):
            raise Fail(mqc.MQRCCF_Q_WRONG_TYPE)
        return word, name, like
    existing = qm.channels.get(name)
    if existing is not None and word and existing.get("CHLTYPE") != word and (
            verb == "ALTER" or _flag(given, mqc.MQIACF_REPLACE, mqc.MQRP_YES)):
        raise Fail(mqc.MQRCCF_CHANNEL_TYPE_ERROR)
    return "CHANNEL", name, like

