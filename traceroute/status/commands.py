"""The PCF commands of live administration, and what their failure says.

`inquire_*`, `reset_queue_stats`, `start_channel`, `stop_channel` build the command
messages (MQCFH Type MQCFT_COMMAND) as IBM's PCF reference defines them, asking for every
attribute (MQIACF_ALL); a filter (`IntegerFilter`/`StringFilter`, at most one, as MQ
allows) can go with an Inquire. `CommandFailed` is a response whose CompCode is not
MQCC_OK: its Reason (MQRC_* or MQRCCF_*) and the parameters the error response carries.
`matches` is MQ's generic name rule (a trailing `*` matches any rest).
"""

from __future__ import annotations

from pcf import mqc
from pcf.model import ByteString, Header, Integer, IntegerList, Message, Parameter, String
from pcf.names import name_of

#: The commands this package builds, by MQCMD_* value (for messages and checks).
COMMAND_NAMES = {
    mqc.MQCMD_INQUIRE_Q_MGR: "Inquire Queue Manager", mqc.MQCMD_INQUIRE_Q: "Inquire Queue",
    mqc.MQCMD_INQUIRE_Q_NAMES: "Inquire Queue Names",
    mqc.MQCMD_INQUIRE_Q_STATUS: "Inquire Queue Status",
    mqc.MQCMD_INQUIRE_CHANNEL: "Inquire Channel",
    mqc.MQCMD_INQUIRE_CHANNEL_NAMES: "Inquire Channel Names",
    mqc.MQCMD_INQUIRE_CHANNEL_STATUS: "Inquire Channel Status",
    mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR: "Inquire Cluster Queue Manager",
    mqc.MQCMD_RESET_Q_STATS: "Reset Queue Statistics",
    mqc.MQCMD_RESET_Q_MGR: "Reset Queue Manager",
    mqc.MQCMD_START_CHANNEL: "Start Channel", mqc.MQCMD_STOP_CHANNEL: "Stop Channel",
    mqc.MQCMD_INQUIRE_TOPIC: "Inquire Topic",
    mqc.MQCMD_INQUIRE_SUBSCRIPTION: "Inquire Subscription",
    mqc.MQCMD_INQUIRE_TOPIC_STATUS: "Inquire Topic Status",
}
#: Inquire Subscription's SubscriptionType words (DISPLAY SUB SUBTYPE(...)).
SUBTYPES = {"ADMIN": mqc.MQSUBTYPE_ADMIN, "API": mqc.MQSUBTYPE_API,
            "PROXY": mqc.MQSUBTYPE_PROXY, "ALL": mqc.MQSUBTYPE_ALL, "USER": mqc.MQSUBTYPE_USER}
#: Inquire Topic Status's StatusType words (DISPLAY TPSTATUS TYPE(...)).
TOPIC_STATUS_TYPES = {"TOPIC": mqc.MQIACF_TOPIC_STATUS, "SUB": mqc.MQIACF_TOPIC_SUB,
                      "PUB": mqc.MQIACF_TOPIC_PUB}


def reason_text(reason: int) -> str:
    """'MQRC_UNKNOWN_OBJECT_NAME (2085)': a reason's name and number."""
    name = name_of(reason, "MQRCCF") or name_of(reason, "MQRC") or "reason"
    return f"{name} ({reason})"


class CommandFailed(Exception):
    """The command server answered with CompCode MQCC_FAILED (or WARNING): its reason, and
    the parameters of the error response (the parameter in error, the object named ...)."""

    def __init__(self, command: int, comp_code: int, reason: int,
                 parameters: list[Parameter] | None = None, what: str = "") -> None:
        self.command = command
        self.comp_code = comp_code
        self.reason = reason
        self.parameters = list(parameters or [])
        self.what = what
        label = COMMAND_NAMES.get(command, f"command {command}")
        super().__init__(f"{label}{' ' + what if what else ''}: {reason_text(reason)}")


def failure_of(message: Message, what: str = "") -> CommandFailed | None:
    """The CommandFailed a response says (None when its CompCode is MQCC_OK)."""
    h = message.header
    if h.comp_code == mqc.MQCC_OK and h.reason == mqc.MQRC_NONE:
        return None
    return CommandFailed(h.command, h.comp_code, h.reason, message.parameters, what)


def matches(pattern: str, name: str) -> bool:
    """MQ's generic names: 'APP.*' matches every name starting APP., '*' every name."""
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def is_generic(pattern: str) -> bool:
    """True for a generic name (ends with *)."""
    return pattern.endswith("*")


def command(code: int, parameters: list[Parameter]) -> Message:
    """A PCF command message (MQCFH version 3, MQCFT_COMMAND) with these parameters."""
    return Message(Header(mqc.MQCFT_COMMAND, code, version=mqc.MQCFH_VERSION_3),
                   list(parameters))


def _name(pid: int, value: str, width: int = 48) -> String:
    return String(pid, value, width=width)


def _filtered(parameters: list[Parameter], where: Parameter | None) -> list[Parameter]:
    return parameters + ([where] if where is not None else [])


def inquire_qmgr() -> Message:
    """Inquire Queue Manager, every attribute."""
    return command(mqc.MQCMD_INQUIRE_Q_MGR,
                   [IntegerList(mqc.MQIACF_Q_MGR_ATTRS, [mqc.MQIACF_ALL])])


def inquire_qmgr_status() -> Message:
    """Inquire Queue Manager Status (DISPLAY QMSTATUS), every status attribute."""
    return command(mqc.MQCMD_INQUIRE_Q_MGR_STATUS,
                   [IntegerList(mqc.MQIACF_Q_MGR_STATUS_ATTRS, [mqc.MQIACF_ALL])])


def inquire_listener_status(name: str = "*") -> Message:
    """Inquire Channel Listener Status (DISPLAY LSSTATUS): one response per listener that
    runs (or starts, stops); none: MQRCCF_LSTR_STATUS_NOT_FOUND."""
    return command(mqc.MQCMD_INQUIRE_LISTENER_STATUS, [_name(mqc.MQCACH_LISTENER_NAME, name)])


def inquire_queue(name: str, qtype: int = mqc.MQQT_ALL, *,
                  where: Parameter | None = None) -> Message:
    """Inquire Queue: every attribute of the queues `name` (generic) of type `qtype`."""
    params: list[Parameter] = [_name(mqc.MQCA_Q_NAME, name),
                               IntegerList(mqc.MQIACF_Q_ATTRS, [mqc.MQIACF_ALL])]
    if qtype != mqc.MQQT_ALL:
        params.append(Integer(mqc.MQIA_Q_TYPE, qtype))
    return command(mqc.MQCMD_INQUIRE_Q, _filtered(params, where))


def inquire_queue_names(name: str = "*", qtype: int = mqc.MQQT_ALL) -> Message:
    """Inquire Queue Names."""
    return command(mqc.MQCMD_INQUIRE_Q_NAMES,
                   [_name(mqc.MQCA_Q_NAME, name), Integer(mqc.MQIA_Q_TYPE, qtype)])


def inquire_queue_status(name: str, *, handles: bool = False,
                         where: Parameter | None = None) -> Message:
    """Inquire Queue Status, StatusType queue (or handle), every attribute."""
    kind = mqc.MQIACF_Q_HANDLE if handles else mqc.MQIACF_Q_STATUS
    return command(mqc.MQCMD_INQUIRE_Q_STATUS, _filtered(
        [_name(mqc.MQCA_Q_NAME, name), Integer(mqc.MQIACF_Q_STATUS_TYPE, kind),
         IntegerList(mqc.MQIACF_Q_STATUS_ATTRS, [mqc.MQIACF_ALL])], where))


def inquire_channel(name: str, chltype: int | None = None, *,
                    where: Parameter | None = None) -> Message:
    """Inquire Channel: every attribute of the channels `name` (generic)."""
    params: list[Parameter] = [_name(mqc.MQCACH_CHANNEL_NAME, name, 20),
                               IntegerList(mqc.MQIACF_CHANNEL_ATTRS, [mqc.MQIACF_ALL])]
    if chltype is not None:
        params.append(Integer(mqc.MQIACH_CHANNEL_TYPE, chltype))
    return command(mqc.MQCMD_INQUIRE_CHANNEL, _filtered(params, where))


def inquire_channel_names(name: str = "*") -> Message:
    """Inquire Channel Names."""
    return command(mqc.MQCMD_INQUIRE_CHANNEL_NAMES, [_name(mqc.MQCACH_CHANNEL_NAME, name, 20)])


def inquire_channel_status(name: str, *, saved: bool = False,
                           where: Parameter | None = None) -> Message:
    """Inquire Channel Status: the current (or saved) instances, every attribute."""
    instance = mqc.MQOT_SAVED_CHANNEL if saved else mqc.MQOT_CURRENT_CHANNEL
    return command(mqc.MQCMD_INQUIRE_CHANNEL_STATUS, _filtered(
        [_name(mqc.MQCACH_CHANNEL_NAME, name, 20),
         Integer(mqc.MQIACH_CHANNEL_INSTANCE_TYPE, instance),
         IntegerList(mqc.MQIACH_CHANNEL_INSTANCE_ATTRS, [mqc.MQIACF_ALL])], where))


def inquire_cluster_qmgr(name: str = "*", cluster: str = "") -> Message:
    """Inquire Cluster Queue Manager."""
    params: list[Parameter] = [_name(mqc.MQCA_CLUSTER_Q_MGR_NAME, name),
                               IntegerList(mqc.MQIACF_CLUSTER_Q_MGR_ATTRS, [mqc.MQIACF_ALL])]
    if cluster:
        params.append(_name(mqc.MQCA_CLUSTER_NAME, cluster))
    return command(mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR, params)


def reset_queue_stats(name: str) -> Message:
    """Reset Queue Statistics (changes the queue manager: its counters start again)."""
    return command(mqc.MQCMD_RESET_Q_STATS, [_name(mqc.MQCA_Q_NAME, name)])


def reset_qmgr_statistics() -> Message:
    """Reset Queue Manager, Action MQACT_COLLECT_STATISTICS (RESET QMGR TYPE(STATISTICS)):
    the statistics collected are written now and a new interval begins."""
    return command(mqc.MQCMD_RESET_Q_MGR,
                   [Integer(mqc.MQIACF_ACTION, mqc.MQACT_COLLECT_STATISTICS)])


def start_channel(name: str) -> Message:
    """Start Channel (changes the queue manager)."""
    return command(mqc.MQCMD_START_CHANNEL, [_name(mqc.MQCACH_CHANNEL_NAME, name, 20)])


def stop_channel(name: str, *, inactive: bool = False) -> Message:
    """Stop Channel; `inactive` leaves it INACTIVE (free to start) instead of STOPPED."""
    params: list[Parameter] = [_name(mqc.MQCACH_CHANNEL_NAME, name, 20)]
    if inactive:
        params.append(Integer(mqc.MQIACH_CHANNEL_STATUS, mqc.MQCHS_INACTIVE))
    return command(mqc.MQCMD_STOP_CHANNEL, params)


def inquire_topic(name: str = "*", topic_type: int = mqc.MQTOPT_LOCAL, *,
                  where: Parameter | None = None) -> Message:
    """Inquire Topic: every attribute of the topic objects `name` (generic); `topic_type`
    MQTOPT_LOCAL (defined here), MQTOPT_CLUSTER (cluster topics known) or MQTOPT_ALL."""
    params: list[Parameter] = [_name(mqc.MQCA_TOPIC_NAME, name),
                               IntegerList(mqc.MQIACF_TOPIC_ATTRS, [mqc.MQIACF_ALL])]
    if topic_type != mqc.MQTOPT_LOCAL:
        params.append(Integer(mqc.MQIA_TOPIC_TYPE, topic_type))
    return command(mqc.MQCMD_INQUIRE_TOPIC, _filtered(params, where))


def inquire_subscription(name: str = "*", *, sub_id: bytes | None = None,
                         subtype: int = mqc.MQSUBTYPE_USER,
                         where: Parameter | None = None) -> Message:
    """Inquire Subscription: every attribute of the subscriptions `name` (generic), or of the
    one with identifier `sub_id`; `subtype` MQSUBTYPE_USER (administrative and API, MQ's
    default), _ADMIN, _API, _PROXY or _ALL."""
    params: list[Parameter] = [ByteString(mqc.MQBACF_SUB_ID, sub_id)] if sub_id else \
        [String(mqc.MQCACF_SUB_NAME, name)]
    params.append(IntegerList(mqc.MQIACF_SUB_ATTRS, [mqc.MQIACF_ALL]))
    if subtype != mqc.MQSUBTYPE_USER:
        params.append(Integer(mqc.MQIACF_SUB_TYPE, subtype))
    return command(mqc.MQCMD_INQUIRE_SUBSCRIPTION, _filtered(params, where))


def inquire_topic_status(topic: str = "#", status_type: int = mqc.MQIACF_TOPIC_STATUS, *,
                         where: Parameter | None = None) -> Message:
    """Inquire Topic Status of a topic string (`#` and `+` select many): the attributes that
    hold there (MQIACF_TOPIC_STATUS), its subscriptions (_SUB) or publishers (_PUB)."""
    return command(mqc.MQCMD_INQUIRE_TOPIC_STATUS, _filtered(
        [String(mqc.MQCA_TOPIC_STRING, topic), Integer(mqc.MQIACF_TOPIC_STATUS_TYPE,
                                                       status_type),
         IntegerList(mqc.MQIACF_TOPIC_STATUS_ATTRS, [mqc.MQIACF_ALL])], where))
