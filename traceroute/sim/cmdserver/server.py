"""The command server of every simulated queue manager: PCF commands in, responses out.

A PCF command put to SYSTEM.ADMIN.COMMAND.QUEUE (Format MQADMIN, MsgType MQMT_REQUEST) is
got by the command server (APPLTAG amqpcsea) a moment later and answered on its ReplyToQ
at its ReplyToQMgr, as IBM's command server answers: MQCFH Type MQCFT_RESPONSE and the
request's Command, one response message per object, MsgSeqNumber 1, 2 ..., Control
MQCFC_NOT_LAST on all but the last (MQCFC_LAST); a failure is one response with CompCode
MQCC_FAILED, the Reason (MQRC_* or MQRCCF_*) and the error response's parameters (the
parameter in error as MQIACF_PARAMETER_ID, the object named). Response messages are
MsgType MQMT_REPLY, Format MQADMIN, CorrelId the request's MsgId (MQRO_PASS_CORREL_ID:
its CorrelId), in the queue manager's encoding and CCSID; MQRO_PASS_DISCARD_AND_EXPIRY
passes the request's remaining expiry on. A request that is not PCF gets
MQRCCF_MD_FORMAT_ERROR (wrong Format) or MQRCCF_STRUCTURE_TYPE_ERROR (undecodable); one
without a ReplyToQ gets no answer. `execute` answers a command in-process (runmqsc does).

The commands: Inquire Queue Manager, Inquire Queue, Inquire Queue Names, Inquire Queue
Status (StatusType queue and handle), Inquire Channel, Inquire Channel Names, Inquire
Channel Status (current and saved), Inquire Cluster Queue Manager, Inquire Topic (TopicType
local, cluster or all), Inquire Subscription (by name, generic, or by SubId;
SubscriptionType user, admin, API, proxy or all), Inquire Topic Status (StatusType topic:
the attributes that hold for a topic string, ASPARENT resolved, with its subscription count;
sub: the subscriptions registered on it, with the publications each received; `#`/`+` in the
topic string select many), Reset Queue Statistics, Reset Queue Manager (Action
MQACT_COLLECT_STATISTICS: the statistics interval ends now, through `reset_statistics`,
which an estate's engines set), Start Channel, Stop Channel, and the commands that define
(Change, Create and Copy Queue and Channel, Change Queue Manager: `change`, numbers checked
against the ranges MQ documents). Names may be generic (a
trailing `*`); one MQCFIF or MQCFSF filter is honoured on any parameter the command returns
(an object without it is left out). No object found:
MQRC_UNKNOWN_OBJECT_NAME (queues, topics), MQRC_NO_SUBSCRIPTION (subscriptions),
MQRCCF_CHANNEL_NOT_FOUND (channels), MQRCCF_CHL_STATUS_NOT_FOUND (channel status); objects
found but the filter (or TYPE(HANDLE)) leaves none: MQRCCF_NONE_FOUND. Other errors:
MQRCCF_CFH_TYPE_ERROR (not a command), MQRCCF_CFH_COMMAND_ERROR (a command this server does
not know), MQRCCF_PARM_COUNT_TOO_SMALL (a required parameter missing),
MQRCCF_CF?_PARM_ID_ERROR (a parameter the command does not take), MQRCCF_CF?_DUPLICATE_PARM,
MQRCCF_TOO_MANY_FILTERS, MQRCCF_CFIF/CFSF_OPERATOR_ERROR and _PARM_ID_ERROR,
MQRCCF_CFST_STRING_LENGTH_ERR (a name too long), MQRCCF_Q_WRONG_TYPE (queue status of a
queue that is not local), MQRCCF_CHANNEL_IN_USE (START of a running channel),
MQRCCF_CHANNEL_NOT_ACTIVE (STOP of a stopped one), MQRCCF_EVENTS_DISABLED (RESET QSTATS
without PERFMEV(ENABLED), as on distributed platforms). Attributes are those the definitions
hold (MQSC keywords with a PCF parameter: `traceroute.status.attributes`); a password or key
that is set is answered as asterisks, as MQ answers it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, timedelta, tzinfo

from pcf import mqc
from pcf.decoder import decode
from pcf.encoder import encode
from pcf.errors import PCFError
from pcf.model import (
    Header,
    Integer,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcf.mqmd import MQMD
from traceroute.events.config import AUTHORITIES, RECORD_TYPES
from traceroute.sim.channels import listeners, listening
from traceroute.sim.cmdserver import change
from traceroute.sim.cmdserver.monitor import COMMAND_SERVER, Monitor
from traceroute.sim.cmdserver.request import Fail, Request
from traceroute.sim.crtmqm import QMGR_DEFAULTS
from traceroute.sim.events import events_of, message_context
from traceroute.sim.mqsc.apply import Outcome, Session
from traceroute.sim.mqsc.syntax import Command, _items
from traceroute.sim.network import MQObject, QueueManager, all_objects
from traceroute.sim.pubsub import Subscription, view
from traceroute.sim.pubsub import matches as topic_matches
from traceroute.sim.pubsub.subscriptions import attributes as sub_attributes
from traceroute.sim.pubsub.tree import nodes
from traceroute.sim.resolve import clusters_of
from traceroute.sim.simulator import COMMAND_QUEUE, Simulator, Stored, Watcher, moment_strings
from traceroute.status.attributes import CHANNEL, QUEUE, SUB, TOPIC, masked
from traceroute.status.commands import matches
from traceroute.status.responses import (
    LeftOut,
    channel_status_parameters,
    cluster_qmgr_parameters,
    definition_parameters,
    handle_status_parameters,
    qmgr_status_parameters,
    queue_status_parameters,
    reset_stats_parameters,
)
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    QmgrStatus,
    QueueStatus,
)
from traceroute.status.words import CHANNEL_TYPE, QUEUE_TYPE, reverse

_QTYPES = reverse(QUEUE_TYPE)
_ADMIN_FORMATS = ("MQADMIN", "MQPCF")


#: What an Inquire Channel Status response always holds, whatever ChannelInstanceAttrs
#: asks for (IBM's "Inquire Channel Status (Response)": "Always returned").
_CHANNEL_STATUS_ALWAYS = (
    mqc.MQCACH_CHANNEL_NAME, mqc.MQIACH_CHANNEL_INSTANCE_TYPE, mqc.MQIACH_CHANNEL_STATUS,
    mqc.MQIACH_CHANNEL_TYPE, mqc.MQCACH_CONNECTION_NAME, mqc.MQCACH_REMOTE_APPL_TAG,
    mqc.MQCA_REMOTE_Q_MGR_NAME, mqc.MQIACH_STOP_REQUESTED, mqc.MQIACH_CHANNEL_SUBSTATE,
    mqc.MQCACH_XMIT_Q_NAME)


def _select(parameters: list[Parameter], wanted: set[int] | None,
            always: tuple[int, ...]) -> list[Parameter]:
    if wanted is None:
        return parameters
    return [p for p in parameters if p.parameter in wanted or p.parameter in always]


def _text_of(value: str | bytes) -> str:
    return (value.decode("latin-1") if isinstance(value, bytes) else value).rstrip(" \x00")


def passes(where: Parameter | None, parameters: list[Parameter]) -> bool:
    """True when an object's response parameters pass the filter (MQCFIF or MQCFSF)."""
    if where is None:
        return True
    found = next((p for p in parameters if p.parameter == where.parameter), None)
    if found is None:
        return False
    op = where.operator  # type: ignore[attr-defined]
    if isinstance(where, IntegerFilter):
        if isinstance(found, IntegerList):
            if op == mqc.MQCFOP_CONTAINS:
                return where.value in found.value
            if op == mqc.MQCFOP_EXCLUDES:
                return where.value not in found.value
            raise Fail(mqc.MQRCCF_CFIF_OPERATOR_ERROR)
        if not isinstance(found, Integer):
            return False
        return _compare(op, found.value, where.value, mqc.MQRCCF_CFIF_OPERATOR_ERROR)
    assert isinstance(where, StringFilter)
    wanted = _text_of(where.value)
    if isinstance(found, StringList):
        items = [_text_of(v) for v in found.value]
        if op in (mqc.MQCFOP_CONTAINS, mqc.MQCFOP_EXCLUDES):
            return (wanted in items) == (op == mqc.MQCFOP_CONTAINS)
        if op in (mqc.MQCFOP_CONTAINS_GEN, mqc.MQCFOP_EXCLUDES_GEN):
            return any(matches(wanted, i) for i in items) == (op == mqc.MQCFOP_CONTAINS_GEN)
        raise Fail(mqc.MQRCCF_CFSF_OPERATOR_ERROR)
    if not isinstance(found, String):
        return False
    have = _text_of(found.value)
    if op in (mqc.MQCFOP_LIKE, mqc.MQCFOP_NOT_LIKE):
        return matches(wanted, have) == (op == mqc.MQCFOP_LIKE)
    return _compare(op, have, wanted, mqc.MQRCCF_CFSF_OPERATOR_ERROR)


def _compare(op: int, have, wanted, error: int) -> bool:
    checks: dict[int, Callable[[], bool]] = {
        mqc.MQCFOP_LESS: lambda: have < wanted, mqc.MQCFOP_EQUAL: lambda: have == wanted,
        mqc.MQCFOP_GREATER: lambda: have > wanted,
        mqc.MQCFOP_NOT_LESS: lambda: have >= wanted,
        mqc.MQCFOP_NOT_EQUAL: lambda: have != wanted,
        mqc.MQCFOP_NOT_GREATER: lambda: have <= wanted,
    }
    if op not in checks:
        raise Fail(error)
    return checks[op]()


def _ids(parameters: list[Parameter]) -> frozenset[int]:
    return frozenset(p.parameter for p in parameters)


#: The parameters each Inquire returns: what its filter may name.
_QUEUE_PARAMS = frozenset({mqc.MQCA_Q_NAME, mqc.MQIA_Q_TYPE, *(a.param for a in QUEUE.values())})
_CHANNEL_PARAMS = frozenset({mqc.MQCACH_CHANNEL_NAME, *(a.param for a in CHANNEL.values())})
_QSTATUS_PARAMS = _ids(queue_status_parameters(QueueStatus("", "", 0, curfsize=0,
                                                           curmaxfs=0))) | _ids(
    handle_status_parameters(HandleStatus("", "", "", 0)))
_CHANNEL_STATUS_PARAMS = _ids(channel_status_parameters(ChannelStatus(
    "", "", "SDR", "RUNNING", bytssent=0, bytsrcvd=0, bufssent=0, bufsrcvd=0)))
_TOPIC_PARAMS = frozenset({mqc.MQCA_TOPIC_NAME, *(a.param for a in TOPIC.values())})
_SUB_PARAMS = frozenset({mqc.MQCACF_SUB_NAME, *(a.param for a in SUB.values())})
_RESOLVED = ("CLUSTER", "CLROUTE", "DEFPSIST", "DEFPRTY", "DURSUB", "NPMSGDLV", "PMSGDLV",
             "PUB", "PUBSCOPE", "SUB", "SUBSCOPE", "USEDLQ")


class CommandServer(Watcher):
    """Answers PCF commands put to SYSTEM.ADMIN.COMMAND.QUEUE of every queue manager."""

    def __init__(self, sim: Simulator, monitor: Monitor | None = None, *,
                 delay: float = 0.001, tz: tzinfo = UTC) -> None:
        self.sim = sim
        #: The queue managers' time zone: the dates and times of status responses
        #: (LPUTDATE, LSTMSGDA, CHSTADA ...) are its wall-clock time, as MQ writes them.
        self.tz = tz
        self.monitor = monitor if monitor is not None else Monitor(sim)
        self.delay = delay
        self.answered = 0
        #: RESET QMGR TYPE(STATISTICS): who writes the statistics (an estate's engines)
        self.reset_statistics: Callable[[str], None] | None = None
        self._due: set[str] = set()
        #: (qmgr, SubId) -> (publications put for it, when the last was)
        self.publications: dict[tuple[str, bytes], tuple[int, float]] = {}
        #: (qmgr, kind, name, keyword) -> 'QM1 QLOCAL(A): DEFPSIST(MAYBE) left out: ...':
        #: each attribute an Inquire answer could not carry (a value or keyword PCF has
        #: nothing for here), for the command's user to be told (`mqroute` prints them)
        self.left_out: LeftOut = {}
        sim.add_watcher(self)
        self._handlers: dict[int, Callable[[QueueManager, Message], list[list[Parameter]]]] = {
            mqc.MQCMD_INQUIRE_Q_MGR: self._inquire_qmgr,
            mqc.MQCMD_INQUIRE_Q_MGR_STATUS: self._inquire_qmgr_status,
            mqc.MQCMD_INQUIRE_LISTENER_STATUS: self._inquire_listener_status,
            mqc.MQCMD_INQUIRE_Q: self._inquire_queue,
            mqc.MQCMD_INQUIRE_Q_NAMES: self._inquire_queue_names,
            mqc.MQCMD_INQUIRE_Q_STATUS: self._inquire_queue_status,
            mqc.MQCMD_INQUIRE_CHANNEL: self._inquire_channel,
            mqc.MQCMD_INQUIRE_CHANNEL_NAMES: self._inquire_channel_names,
            mqc.MQCMD_INQUIRE_CHANNEL_STATUS: self._inquire_channel_status,
            mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR: self._inquire_cluster_qmgr,
            mqc.MQCMD_INQUIRE_TOPIC: self._inquire_topic,
            mqc.MQCMD_INQUIRE_SUBSCRIPTION: self._inquire_subscription,
            mqc.MQCMD_INQUIRE_TOPIC_STATUS: self._inquire_topic_status,
            mqc.MQCMD_RESET_Q_STATS: self._reset_queue_stats,
            mqc.MQCMD_RESET_Q_MGR: self._reset_qmgr,
            mqc.MQCMD_START_CHANNEL: self._start_channel,
            mqc.MQCMD_STOP_CHANNEL: self._stop_channel,
            mqc.MQCMD_SET_AUTH_REC: self._auth_rec,
            mqc.MQCMD_DELETE_AUTH_REC: self._auth_rec,
            mqc.MQCMD_REFRESH_Q_MGR: self._refresh_qmgr,
            **dict.fromkeys(change.COMMANDS, self._change),
        }
        #: the command being answered: (user, its message's context, the CorrelId its
        #: events share); None for a command not from the command queue
        self._command: tuple[str, list[Parameter], bytes | None] | None = None

    # --- the queue -------------------------------------------------------------------------

    def stored(self, qmgr: str, queue: str, message: Stored) -> None:
        """A message on the command queue: the command server gets to it a moment later."""
        if queue == COMMAND_QUEUE and qmgr not in self._due:
            self._due.add(qmgr)
            self.sim.later(self.delay, lambda: self._serve(qmgr))

    def published(self, qmgr: str, subscription: Subscription, md: MQMD,
                  length: int) -> None:
        """A copy put for a subscription: NUMPUBS and the last message's time."""
        key = (qmgr, subscription.sub_id)
        count, _ = self.publications.get(key, (0, 0.0))
        self.publications[key] = (count + 1, self.sim.now)

    def _serve(self, qmgr: str) -> None:
        self._due.discard(qmgr)
        if qmgr not in self.sim.network.qmgrs:
            return
        while True:
            got = self.sim.get(qmgr, COMMAND_QUEUE, appl_name=COMMAND_SERVER)
            if got is None:
                return
            self._answer(qmgr, *got)

    def _answer(self, qmgr: str, md: MQMD, data: bytes) -> None:
        if not md.reply_to_q.strip():
            return  # nowhere to answer: IBM's command server discards it too
        if md.format.strip() not in _ADMIN_FORMATS:
            responses = [self._failure(0, Fail(mqc.MQRCCF_MD_FORMAT_ERROR))]
        else:
            try:
                request = decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                                 fmt=md.format)
            except PCFError:
                responses = [self._failure(0, Fail(mqc.MQRCCF_STRUCTURE_TYPE_ERROR))]
            else:
                responses = self._run(qmgr, md, request)
        enc, ccsid = self.sim.encoding(qmgr)
        correl = md.correl_id if md.report & mqc.MQRO_PASS_CORREL_ID else md.msg_id
        expiry = -1
        if md.report & mqc.MQRO_PASS_DISCARD_AND_EXPIRY and md.expiry > 0:
            expiry = md.expiry
        for response in responses:
            reply = MQMD(msg_type=mqc.MQMT_REPLY, format="MQADMIN", encoding=enc,
                         coded_char_set_id=ccsid, correl_id=correl, expiry=expiry,
                         persistence=md.persistence, priority=md.priority,
                         msg_id=md.msg_id if md.report & mqc.MQRO_PASS_MSG_ID else bytes(24))
            self.sim.put(qmgr, md.reply_to_q.strip(), reply,
                         encode(response, encoding=enc, ccsid=ccsid),
                         target_qmgr=md.reply_to_q_mgr.strip(), appl_name=COMMAND_SERVER,
                         appl_type=mqc.MQAT_QMGR)
        self.answered += 1

    # --- commands ------------------------------------------------------------------------

    def _run(self, qmgr: str, md: MQMD, request: Message) -> list[Message]:
        """A command from the command queue: the user of its message must have the
        authority for it (else MQRC_NOT_AUTHORIZED, and the Not Authorized type 4 event);
        one that ran is a PCF command event (traceroute.sim.events, when attached)."""
        events = events_of(self.sim)
        user = md.user_identifier.strip() or "mqm"
        if events is not None and events.pcf_refused(qmgr, request, user):
            return [self._failure(request.header.command, Fail(mqc.MQRC_NOT_AUTHORIZED))]
        correl = events.new_correl(qmgr) if events is not None else None
        self._command = (user, message_context(md), correl)
        try:
            responses = self.execute(qmgr, request)
        finally:
            self._command = None
        if events is not None and responses and \
                responses[-1].header.comp_code != mqc.MQCC_FAILED:
            events.pcf_command(qmgr, request, user=user, context=message_context(md),
                               correl_id=correl)
        return responses

    def execute(self, qmgr: str, request: Message) -> list[Message]:
        """The responses of queue manager `qmgr`'s command server to one command."""
        command = request.header.command
        qm = self.sim.network.qmgrs[qmgr]
        try:
            if request.header.type != mqc.MQCFT_COMMAND:
                raise Fail(mqc.MQRCCF_CFH_TYPE_ERROR)
            handler = self._handlers.get(command)
            if handler is None:
                raise Fail(mqc.MQRCCF_CFH_COMMAND_ERROR)
            objects = handler(qm, request)
        except Fail as e:
            return [self._failure(command, e)]
        if not objects:
            objects = [[]]
        last = len(objects)
        return [Message(Header(mqc.MQCFT_RESPONSE, command, n,
                               mqc.MQCFC_LAST if n == last else mqc.MQCFC_NOT_LAST), params)
                for n, params in enumerate(objects, start=1)]

    def _auth_rec(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        """Set / Delete Authority Record: as SET AUTHREC / DELETE AUTHREC, one record per
        principal and group named; from the command queue the configuration events say
        EventOrigin MQEVO_MSG with the command message's context."""
        try:
            commands = authrec_mqsc(message)
        except ValueError as e:
            raise Fail(int(str(e))) from None
        session = Session(self.sim.network, qm.name, reading=False)
        for text in commands:
            command = next(c for c in _items(text, "<pcf>") if isinstance(c, Command))
            if not self._apply_mqsc(session, command).ok:
                raise Fail(mqc.MQRCCF_PARM_VALUE_ERROR)
        return []

    def _apply_mqsc(self, session: Session, command: Command) -> Outcome:
        """Apply the MQSC command a PCF command stands for; from the command queue its
        configuration events say EventOrigin MQEVO_MSG with the message's context and share
        the PCF command event's CorrelId (traceroute.sim.events, when attached)."""
        events = events_of(self.sim)
        if events is None:
            return session.execute(command)
        user, context, correl = self._command or ("mqm", [], None)
        outcome, _ = events.execute(
            session, command, user=user, command_event=False, correl_id=correl,
            origin=mqc.MQEVO_MSG if self._command else mqc.MQEVO_OTHER, context=context)
        return outcome

    def _change(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        """Change/Create/Copy Queue or Channel, Change Queue Manager (`change`)."""
        family, command = change.command_of(qm, message)
        outcome = self._apply_mqsc(Session(self.sim.network, qm.name, reading=False), command)
        if not outcome.ok:
            raise change.refused(family, outcome.amq)
        return []

    def _refresh_qmgr(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        """Refresh Queue Manager with RefreshType MQRT_CONFIGURATION (as REFRESH QMGR
        TYPE(CONFIGEV)): a Refresh Object / Refresh Authority Record event per object and
        record its ObjectType and ObjectName select. Other refresh types change nothing the
        simulator keeps: answered OK."""
        def get(pid: int) -> object:
            return next((p.value for p in message.parameters if p.parameter == pid), None)

        refresh_type = get(mqc.MQIACF_REFRESH_TYPE)
        if refresh_type is None:
            raise Fail(mqc.MQRCCF_PARM_MISSING)
        if refresh_type != mqc.MQRT_CONFIGURATION:
            return []
        objtype = get(mqc.MQIACF_OBJECT_TYPE)
        kind = _REFRESH_KINDS.get(objtype if isinstance(objtype, int) else mqc.MQOT_ALL, "?")
        if kind == "?":
            raise Fail(mqc.MQRCCF_PARM_VALUE_ERROR)
        name = get(mqc.MQCACF_OBJECT_NAME)
        events = events_of(self.sim)
        if events is not None:
            user, context, _correl = self._command or ("mqm", [], None)
            events.refresh(qm.name, kind=kind, name=name.strip() if isinstance(name, str)
                           and name.strip() else None, user=user, context=context,
                           origin=mqc.MQEVO_MSG if self._command else mqc.MQEVO_OTHER)
        return []

    @staticmethod
    def _failure(command: int, e: Fail) -> Message:
        return Message(Header(mqc.MQCFT_RESPONSE, command, 1, mqc.MQCFC_LAST,
                              mqc.MQCC_FAILED, e.reason), e.parameters)

    def _found(self, out: list[list[Parameter]], where: Parameter | None,
               none: Fail) -> list[list[Parameter]]:
        if not out:
            raise none
        kept = [params for params in out if passes(where, params)]
        if not kept:
            raise Fail(mqc.MQRCCF_NONE_FOUND)
        return kept

    def _parameters(self, d: Definition) -> list[Parameter]:
        """An Inquire answer's parameters for `d`; what PCF cannot carry is noted in
        `left_out` (never dropped unsaid)."""
        return definition_parameters(d, self.left_out)[0]

    def _inquire_qmgr(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        r = Request(message, (), (mqc.MQIACF_Q_MGR_ATTRS,))
        # PLATFORM: a simulated queue manager is MQ for Multiplatforms on Linux (crtmqm's
        # defaults are 9.4's there), whose Inquire Queue Manager always says MQPL_UNIX
        attrs = {**QMGR_DEFAULTS, **qm.attrs, "CMDLEVEL": str(qm.command_level),
                 "PLATFORM": "UNIX"}
        params = self._parameters(Definition(qm.name, "QMGR", qm.name,
                                                     masked("QMGR", attrs)))
        return [_select(params, r.selected(mqc.MQIACF_Q_MGR_ATTRS), (mqc.MQCA_Q_MGR_NAME,))]

    def _inquire_qmgr_status(self, qm: QueueManager,
                             message: Message) -> list[list[Parameter]]:
        """Inquire Queue Manager Status (Multiplatforms): running (it answers) since the
        simulation's start or its last strmqm; ConnectionCount the connections open to it
        now (applications, channel agents, this command's asker); command server and
        channel initiator running; the installation a Linux crtmqm makes by default."""
        r = Request(message, (), (mqc.MQIACF_Q_MGR_STATUS_ATTRS,))
        connections = sum(1 for c in self.sim.connections() if c.qmgr == qm.name)
        status = QmgrStatus(
            qm.name, mqc.MQQMSTA_RUNNING,
            start=self.sim.qmgr_started(qm.name).replace(tzinfo=UTC),
            connections=connections, command_server=mqc.MQSVC_STATUS_RUNNING,
            channel_initiator=mqc.MQSVC_STATUS_RUNNING, installation_name="Installation1",
            installation_path="/opt/mqm", installation_desc="")
        return [_select(qmgr_status_parameters(status, self.tz),
                        r.selected(mqc.MQIACF_Q_MGR_STATUS_ATTRS),
                        (mqc.MQCA_Q_MGR_NAME, mqc.MQIACF_Q_MGR_STATUS))]

    def _inquire_listener_status(self, qm: QueueManager,
                                 message: Message) -> list[list[Parameter]]:
        """Inquire Channel Listener Status: the TCP listeners that run (started, or started
        with the queue manager), since the queue manager's start; none:
        MQRCCF_LSTR_STATUS_NOT_FOUND, as MQ answers."""
        r = Request(message, (mqc.MQCACH_LISTENER_NAME,), (mqc.MQIACF_LISTENER_STATUS_ATTRS,))
        pattern = r.text(mqc.MQCACH_LISTENER_NAME)
        date, time = moment_strings(self.sim.qmgr_started(qm.name))[:2]
        control = {"QMGR": mqc.MQSVC_CONTROL_Q_MGR, "STARTONLY": mqc.MQSVC_CONTROL_Q_MGR_START}
        out = []
        for obj in listeners(qm):
            if not (matches(pattern, obj.name) and listening(qm, obj)):
                continue
            params: list[Parameter] = [
                String(mqc.MQCACH_LISTENER_NAME, obj.name, width=48),
                Integer(mqc.MQIACH_LISTENER_STATUS, mqc.MQSVC_STATUS_RUNNING),
                Integer(mqc.MQIACH_BACKLOG, int(obj.get("BACKLOG") or 0)),
                String(mqc.MQCACH_LISTENER_DESC, obj.get("DESCR") or "", width=64),
                Integer(mqc.MQIACH_PORT, int(obj.get("PORT") or 0)),
                String(mqc.MQCACH_LISTENER_START_DATE, date, width=12),
                String(mqc.MQCACH_LISTENER_START_TIME, time.replace(":", "."), width=8),
                Integer(mqc.MQIACH_LISTENER_CONTROL, control.get(
                    (obj.get("CONTROL") or "").upper(), mqc.MQSVC_CONTROL_MANUAL)),
                Integer(mqc.MQIACH_XMIT_PROTOCOL_TYPE, mqc.MQXPT_TCP)]
            out.append(_select(params, r.selected(mqc.MQIACF_LISTENER_STATUS_ATTRS),
                               (mqc.MQCACH_LISTENER_NAME, mqc.MQIACH_LISTENER_STATUS)))
        if not out:
            raise Fail(mqc.MQRCCF_LSTR_STATUS_NOT_FOUND)
        return out

    def _queues(self, qm: QueueManager, pattern: str, qtype: int) -> list[MQObject]:
        return [q for q in all_objects(qm) if q.kind in _QTYPES and matches(pattern, q.name)
                and (qtype == mqc.MQQT_ALL or _QTYPES.get(q.kind) == qtype)]

    def _local_queues(self, qm: QueueManager, pattern: str) -> list[MQObject]:
        """The local queues a status command names (MQRCCF_Q_WRONG_TYPE for a named queue
        of another type, MQRC_UNKNOWN_OBJECT_NAME when there is none)."""
        named = qm.queues.get(pattern)
        if not pattern.endswith("*") and named is not None and named.kind != "QLOCAL":
            raise Fail(mqc.MQRCCF_Q_WRONG_TYPE, String(mqc.MQCA_Q_NAME, pattern, width=48))
        queues = self._queues(qm, pattern, mqc.MQQT_LOCAL)
        if not queues:
            raise Fail(mqc.MQRC_UNKNOWN_OBJECT_NAME, String(mqc.MQCA_Q_NAME, pattern, width=48))
        return queues

    def _inquire_queue(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_Q_NAME,),
                     (mqc.MQIACF_Q_ATTRS, mqc.MQIA_Q_TYPE, mqc.MQIACF_CLUSTER_INFO,
                      mqc.MQIA_QSG_DISP), _QUEUE_PARAMS)
        pattern, wanted = r.text(mqc.MQCA_Q_NAME), r.selected(mqc.MQIACF_Q_ATTRS)
        out = []
        for q in self._queues(qm, pattern, r.number(mqc.MQIA_Q_TYPE, mqc.MQQT_ALL)):
            params = self._parameters(Definition(qm.name, q.kind, q.name,
                                                         q.effective()))
            if q.kind == "QLOCAL":
                status = self.monitor.queue_status(qm.name, q.name)
                params += [Integer(mqc.MQIA_CURRENT_Q_DEPTH, status.curdepth),
                           Integer(mqc.MQIA_OPEN_INPUT_COUNT, status.ipprocs),
                           Integer(mqc.MQIA_OPEN_OUTPUT_COUNT, status.opprocs)]
            out.append(_select(params, wanted, (mqc.MQCA_Q_NAME, mqc.MQIA_Q_TYPE)))
        return self._found(out, r.where, Fail(mqc.MQRC_UNKNOWN_OBJECT_NAME,
                                               String(mqc.MQCA_Q_NAME, pattern, width=48)))

    def _inquire_queue_names(self, qm: QueueManager,
                             message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_Q_NAME,), (mqc.MQIA_Q_TYPE, mqc.MQIA_QSG_DISP))
        queues = self._queues(qm, r.text(mqc.MQCA_Q_NAME),
                              r.number(mqc.MQIA_Q_TYPE, mqc.MQQT_ALL))
        return [[StringList(mqc.MQCACF_Q_NAMES, [q.name for q in queues], width=48),
                 IntegerList(mqc.MQIACF_Q_TYPES, [_QTYPES[q.kind] for q in queues])]]

    def _inquire_queue_status(self, qm: QueueManager,
                              message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_Q_NAME,),
                     (mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS_ATTRS, mqc.MQIACF_OPEN_TYPE,
                      mqc.MQIA_QSG_DISP), _QSTATUS_PARAMS)
        pattern = r.text(mqc.MQCA_Q_NAME)
        kind = r.number(mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS)
        if kind not in (mqc.MQIACF_Q_STATUS, mqc.MQIACF_Q_HANDLE):
            raise Fail(mqc.MQRCCF_PARM_VALUE_ERROR,
                        Integer(mqc.MQIACF_PARAMETER_ID, mqc.MQIACF_Q_STATUS_TYPE))
        queues = self._local_queues(qm, pattern)
        wanted = r.selected(mqc.MQIACF_Q_STATUS_ATTRS)
        always = (mqc.MQCA_Q_NAME, mqc.MQIACF_Q_STATUS_TYPE)
        out = []
        for q in queues:
            if kind == mqc.MQIACF_Q_STATUS:
                out.append(_select(queue_status_parameters(
                    self.monitor.queue_status(qm.name, q.name), self.tz), wanted, always))
            else:
                out += [_select(handle_status_parameters(h), wanted, always)
                        for h in self.monitor.handles(qm.name, q.name)]
        if not out:
            raise Fail(mqc.MQRCCF_NONE_FOUND)
        return self._found(out, r.where, Fail(mqc.MQRCCF_NONE_FOUND))

    def _channels(self, qm: QueueManager, pattern: str, chltype: int | None) -> list[MQObject]:
        return [ch for ch in all_objects(qm) if ch.kind == "CHANNEL" and matches(pattern, ch.name)
                and (chltype in (None, mqc.MQCHT_ALL)
                     or CHANNEL_TYPE.get(chltype) == ch.get("CHLTYPE"))]

    def _inquire_channel(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCACH_CHANNEL_NAME,),
                     (mqc.MQIACF_CHANNEL_ATTRS, mqc.MQIACH_CHANNEL_TYPE, mqc.MQIA_QSG_DISP),
                     _CHANNEL_PARAMS)
        pattern = r.text(mqc.MQCACH_CHANNEL_NAME)
        chltype = r.number(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_ALL)
        wanted = r.selected(mqc.MQIACF_CHANNEL_ATTRS)
        out = []
        for ch in self._channels(qm, pattern, chltype):
            params = self._parameters(Definition(qm.name, "CHANNEL", ch.name,
                                                         masked("CHANNEL", ch.effective())))
            out.append(_select(params, wanted,
                               (mqc.MQCACH_CHANNEL_NAME, mqc.MQIACH_CHANNEL_TYPE)))
        return self._found(out, r.where, Fail(mqc.MQRCCF_CHANNEL_NOT_FOUND, String(
            mqc.MQCACH_CHANNEL_NAME, pattern, width=20)))

    def _inquire_channel_names(self, qm: QueueManager,
                               message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCACH_CHANNEL_NAME,),
                     (mqc.MQIACH_CHANNEL_TYPE, mqc.MQIA_QSG_DISP))
        channels = self._channels(qm, r.text(mqc.MQCACH_CHANNEL_NAME),
                                  r.number(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_ALL))
        return [[StringList(mqc.MQCACH_CHANNEL_NAMES, [c.name for c in channels], width=20)]]

    def _inquire_channel_status(self, qm: QueueManager,
                                message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCACH_CHANNEL_NAME,),
                     (mqc.MQIACH_CHANNEL_INSTANCE_TYPE, mqc.MQIACH_CHANNEL_INSTANCE_ATTRS,
                      mqc.MQCACH_XMIT_Q_NAME, mqc.MQCACH_CONNECTION_NAME, mqc.MQIA_QSG_DISP,
                      mqc.MQIACH_CHANNEL_DISP), _CHANNEL_STATUS_PARAMS)
        pattern = r.text(mqc.MQCACH_CHANNEL_NAME)
        instance = r.number(mqc.MQIACH_CHANNEL_INSTANCE_TYPE, mqc.MQOT_CURRENT_CHANNEL)
        if instance not in (mqc.MQOT_CURRENT_CHANNEL, mqc.MQOT_SAVED_CHANNEL):
            raise Fail(mqc.MQRCCF_CHL_INST_TYPE_ERROR)
        saved = instance == mqc.MQOT_SAVED_CHANNEL
        xmitq, conname = r.text(mqc.MQCACH_XMIT_Q_NAME), r.text(mqc.MQCACH_CONNECTION_NAME)
        names = (self.monitor.channels_saved(qm.name) if saved
                 else self.monitor.channels_with_status(qm.name))
        wanted = r.selected(mqc.MQIACH_CHANNEL_INSTANCE_ATTRS)
        always = _CHANNEL_STATUS_ALWAYS
        out = []
        for name in names:
            status = self.monitor.channel_status(qm.name, name, saved=saved)
            if status is None or not matches(pattern, name) or \
                    (xmitq and status.xmitq != xmitq) or (conname and status.conname != conname):
                continue
            out.append(_select(channel_status_parameters(status, self.tz), wanted, always))
        return self._found(out, r.where, Fail(mqc.MQRCCF_CHL_STATUS_NOT_FOUND, String(
            mqc.MQCACH_CHANNEL_NAME, pattern, width=20)))

    def _inquire_cluster_qmgr(self, qm: QueueManager,
                              message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_CLUSTER_Q_MGR_NAME,),
                     (mqc.MQIACF_CLUSTER_Q_MGR_ATTRS, mqc.MQCA_CLUSTER_NAME,
                      mqc.MQCACH_CHANNEL_NAME))
        pattern = r.text(mqc.MQCA_CLUSTER_Q_MGR_NAME)
        wanted_cluster = r.text(mqc.MQCA_CLUSTER_NAME)
        out = []
        for cluster in sorted(clusters_of(qm)):
            if wanted_cluster and not matches(wanted_cluster, cluster):
                continue
            for other in self.sim.network.qmgrs.values():
                for ch in other.channels.values():
                    if ch.get("CHLTYPE") != "CLUSRCVR" or ch.cluster != cluster or \
                            not matches(pattern, other.name):
                        continue
                    out.append(cluster_qmgr_parameters(self._cluster_entry(qm, other, ch,
                                                                           cluster)))
        if not out:
            raise Fail(mqc.MQRC_UNKNOWN_OBJECT_NAME,
                        String(mqc.MQCA_CLUSTER_Q_MGR_NAME, pattern, width=48))
        return out

    def _cluster_entry(self, qm: QueueManager, other: QueueManager, ch: MQObject,
                       cluster: str) -> ClusterQmgr:
        if other is qm:
            deftype, status = "CLUSRCVR", "INACTIVE"
        else:
            own = qm.channels.get(ch.name)
            deftype = "CLUSSDRB" if own is not None and own.get("CHLTYPE") == "CLUSSDR" \
                else "CLUSSDRA"
            status = self.monitor.channel_state(qm.name, ch.name)[0]
        qmtype = "REPOS" if other.attrs.get("REPOS") == cluster else "NORMAL"
        return ClusterQmgr(qm.name, other.name, cluster, ch.name, ch.get("CONNAME"), qmtype,
                           deftype, status)

    # --- publish/subscribe ----------------------------------------------------------------

    def _inquire_topic(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_TOPIC_NAME,),
                     (mqc.MQIACF_TOPIC_ATTRS, mqc.MQIA_TOPIC_TYPE, mqc.MQIA_QSG_DISP),
                     _TOPIC_PARAMS)
        pattern, wanted = r.text(mqc.MQCA_TOPIC_NAME), r.selected(mqc.MQIACF_TOPIC_ATTRS)
        kind = r.number(mqc.MQIA_TOPIC_TYPE, mqc.MQTOPT_LOCAL)
        found: list[tuple[str, MQObject]] = []
        if kind in (mqc.MQTOPT_LOCAL, mqc.MQTOPT_ALL):
            found += [("LOCAL", t) for t in all_objects(qm)
                      if t.kind == "TOPIC" and matches(pattern, t.name)]
        if kind in (mqc.MQTOPT_CLUSTER, mqc.MQTOPT_ALL):  # the cluster's, ours included
            network = self.sim.network
            for node in nodes(network, qm.name).values():
                if node.obj.get("CLUSTER") and matches(pattern, node.obj.name):
                    found.append(("CLUSTER", node.obj))
        out = []
        for topic_type, t in found:
            params = self._parameters(Definition(
                qm.name, "TOPIC", t.name, {**t.effective(), "TYPE": topic_type}))
            out.append(_select(params, wanted, (mqc.MQCA_TOPIC_NAME, mqc.MQIA_TOPIC_TYPE)))
        return self._found(out, r.where, Fail(mqc.MQRC_UNKNOWN_OBJECT_NAME,
                                               String(mqc.MQCA_TOPIC_NAME, pattern, width=48)))

    def _inquire_subscription(self, qm: QueueManager,
                              message: Message) -> list[list[Parameter]]:
        r = Request(message, (), (mqc.MQCACF_SUB_NAME, mqc.MQBACF_SUB_ID,
                                   mqc.MQIACF_SUB_ATTRS, mqc.MQIACF_SUB_TYPE,
                                   mqc.MQIACF_DURABLE_SUBSCRIPTION, mqc.MQIA_QSG_DISP),
                     _SUB_PARAMS)
        by_id = r.by_id.get(mqc.MQBACF_SUB_ID)
        if (by_id is None) == (mqc.MQCACF_SUB_NAME not in r.by_id):
            raise Fail(mqc.MQRCCF_SUB_IDENTITY_ERROR)  # a name or an identifier, not both
        sub_id = bytes(by_id.value) if by_id is not None else b""  # type: ignore[attr-defined]
        pattern = "" if by_id is not None else r.text(mqc.MQCACF_SUB_NAME)
        subtype = r.number(mqc.MQIACF_SUB_TYPE, mqc.MQSUBTYPE_USER)
        durable = r.number(mqc.MQIACF_DURABLE_SUBSCRIPTION, mqc.MQSUB_DURABLE_ALL)
        wanted = r.selected(mqc.MQIACF_SUB_ATTRS)
        out = []
        for sub in self.sim.pubsub.of(self.sim.network, qm.name):
            if (sub_id and sub.sub_id != sub_id) or (pattern and not matches(pattern, sub.name)):
                continue
            if not sub_id and subtype != mqc.MQSUBTYPE_ALL and (
                    sub.kind != subtype if subtype != mqc.MQSUBTYPE_USER else sub.proxy):
                continue
            if durable != mqc.MQSUB_DURABLE_ALL and sub.durable != (
                    durable == mqc.MQSUB_DURABLE_YES):
                continue
            params = self._parameters(Definition(qm.name, "SUB", sub.name,
                                                         sub_attributes(sub)))
            out.append(_select(params, wanted, (mqc.MQCACF_SUB_NAME, mqc.MQBACF_SUB_ID)))
        return self._found(out, r.where, Fail(mqc.MQRC_NO_SUBSCRIPTION))

    def _inquire_topic_status(self, qm: QueueManager,
                              message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_TOPIC_STRING,),
                     (mqc.MQIACF_TOPIC_STATUS_TYPE, mqc.MQIACF_TOPIC_STATUS_ATTRS))
        p = r.by_id[mqc.MQCA_TOPIC_STRING]
        pattern = _text_of(p.value)  # type: ignore[attr-defined]
        kind = r.number(mqc.MQIACF_TOPIC_STATUS_TYPE, mqc.MQIACF_TOPIC_STATUS)
        if kind not in (mqc.MQIACF_TOPIC_STATUS, mqc.MQIACF_TOPIC_SUB, mqc.MQIACF_TOPIC_PUB):
            raise Fail(mqc.MQRCCF_PARM_VALUE_ERROR,
                        Integer(mqc.MQIACF_PARAMETER_ID, mqc.MQIACF_TOPIC_STATUS_TYPE))
        network = self.sim.network
        subs = self.sim.pubsub.of(network, qm.name)
        known = set(nodes(network, qm.name)) | {s.topic for s in subs}
        topics = sorted(t for t in known if t and topic_matches(pattern, t)) if \
            any(level in ("#", "+") for level in pattern.split("/")) else [pattern]
        out: list[list[Parameter]] = []
        for topic in topics:
            if kind == mqc.MQIACF_TOPIC_STATUS:
                out.append(self._parameters(self._topic_status(qm, topic, subs)))
            elif kind == mqc.MQIACF_TOPIC_SUB:
                out += [self._parameters(self._sub_status(qm, topic, s))
                        for s in subs if s.topic == topic]
        if not out:
            raise Fail(mqc.MQRCCF_NONE_FOUND) if kind != mqc.MQIACF_TOPIC_STATUS else \
                Fail(mqc.MQRC_UNKNOWN_OBJECT_NAME)
        return out

    def _topic_status(self, qm: QueueManager, topic: str,
                      subs: list[Subscription]) -> Definition:
        """DISPLAY TPSTATUS TYPE(TOPIC) of one topic string: the attributes that hold."""
        v = view(self.sim.network, qm.name, topic)
        resolved = {"CLUSTER": v.cluster, "CLROUTE": v.clroute if v.cluster else "NONE",
                    "DEFPSIST": v.defpsist, "DEFPRTY": v.defprty, "DURSUB": v.durable,
                    "NPMSGDLV": v.npmsgdlv, "PMSGDLV": v.pmsgdlv, "PUB": v.pub,
                    "PUBSCOPE": v.pubscope, "SUB": v.sub, "SUBSCOPE": v.subscope,
                    "USEDLQ": v.usedlq}
        node = v.node
        admin = node.obj.name if node.topic == topic and node.topic else ""
        base = node.obj.effective()
        attrs = {"ADMIN": admin, **{k: resolved[k] for k in _RESOLVED},
                 "DEFPRESP": base.get("DEFPRESP", "SYNC") if base.get("DEFPRESP") !=
                 "ASPARENT" else "SYNC", "MDURMDL": base.get("MDURMDL") or
                 "SYSTEM.DURABLE.MODEL.QUEUE", "MNDURMDL": base.get("MNDURMDL") or
                 "SYSTEM.NDURABLE.MODEL.QUEUE", "RETAINED": "NO", "PUBCOUNT": "0",
                 "SUBCOUNT": str(sum(1 for s in subs if s.topic == topic))}
        return Definition(qm.name, "TPSTATUS", topic, attrs)

    def _sub_status(self, qm: QueueManager, topic: str, sub: Subscription) -> Definition:
        """DISPLAY TPSTATUS TYPE(SUB): a subscription registered on a topic string."""
        count, last = self.publications.get((qm.name, sub.sub_id), (0, 0.0))
        date, time = ("", "")
        if count:
            moment = self.sim.start + timedelta(seconds=last)
            date, time = moment_strings(moment)[:2]
            time = time.replace(":", ".")
        start = moment_strings(self.sim.start)
        attrs = {"SUBID": sub.sub_id.hex().upper(), "SUBUSER": sub.user,
                 "DURABLE": "YES" if sub.durable else "NO",
                 "SUBTYPE": {mqc.MQSUBTYPE_API: "API", mqc.MQSUBTYPE_PROXY: "PROXY"}.get(
                     sub.kind, "ADMIN"),
                 "RESMDATE": start[0], "RESMTIME": start[1].replace(":", "."),
                 "LMSGDATE": date, "LMSGTIME": time, "NUMPUBS": str(count)}
        return Definition(qm.name, "TPSTATUS_SUB", topic, attrs)

    def _reset_queue_stats(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        r = Request(message, (mqc.MQCA_Q_NAME,), (mqc.MQIA_QSG_DISP,))
        pattern = r.text(mqc.MQCA_Q_NAME)
        if (qm.attrs.get("PERFMEV") or "DISABLED").upper() != "ENABLED":
            raise Fail(mqc.MQRCCF_EVENTS_DISABLED)
        queues = self._local_queues(qm, pattern)
        return [reset_stats_parameters(self.monitor.reset(qm.name, q.name)) for q in queues]

    def _reset_qmgr(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        """Reset Queue Manager: Action MQACT_COLLECT_STATISTICS ends the statistics interval
        now (the others, of logs and publish/subscribe hierarchies, are not simulated)."""
        r = Request(message, (mqc.MQIACF_ACTION,), (mqc.MQCA_CHILD, mqc.MQCA_PARENT))
        if r.number(mqc.MQIACF_ACTION, 0) != mqc.MQACT_COLLECT_STATISTICS:
            raise Fail(mqc.MQRCCF_ACTION_VALUE_ERROR,
                        Integer(mqc.MQIACF_PARAMETER_ID, mqc.MQIACF_ACTION))
        if self.reset_statistics is not None:
            self.reset_statistics(qm.name)
        return []

    def _channel_named(self, qm: QueueManager, message: Message,
                       optional: tuple[int, ...] = ()) -> tuple[str, Request]:
        r = Request(message, (mqc.MQCACH_CHANNEL_NAME,), optional)
        name = r.text(mqc.MQCACH_CHANNEL_NAME)
        if name not in qm.channels and (qm.name, name) not in self.monitor.channels:
            raise Fail(mqc.MQRCCF_CHANNEL_NOT_FOUND,
                        String(mqc.MQCACH_CHANNEL_NAME, name, width=20))
        return name, r

    def _start_channel(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        name, _ = self._channel_named(qm, message, (mqc.MQIACH_CHANNEL_DISP,))
        channel = qm.channels.get(name)
        if channel is not None and channel.get("CHLTYPE") == "CLNTCONN":
            raise Fail(mqc.MQRCCF_CHANNEL_TYPE_ERROR)
        if self.monitor.channel_state(qm.name, name)[0] == "RUNNING":
            raise Fail(mqc.MQRCCF_CHANNEL_IN_USE,
                        String(mqc.MQCACH_CHANNEL_NAME, name, width=20))
        self.sim.start_channel(qm.name, name)
        return []

    def _stop_channel(self, qm: QueueManager, message: Message) -> list[list[Parameter]]:
        name, r = self._channel_named(qm, message, (
            mqc.MQIACH_CHANNEL_STATUS, mqc.MQIACF_MODE, mqc.MQCA_Q_MGR_NAME,
            mqc.MQCACH_CONNECTION_NAME, mqc.MQIACH_CHANNEL_DISP))
        state = self.monitor.channel_state(qm.name, name)[0]
        if state == "STOPPED":
            raise Fail(mqc.MQRCCF_CHANNEL_NOT_ACTIVE,
                        String(mqc.MQCACH_CHANNEL_NAME, name, width=20))
        channel = qm.channels.get(name)
        if channel is not None and channel.get("CHLTYPE") == "CLNTCONN":
            raise Fail(mqc.MQRCCF_CHANNEL_TYPE_ERROR)
        if r.number(mqc.MQIACH_CHANNEL_STATUS, mqc.MQCHS_STOPPED) == mqc.MQCHS_INACTIVE:
            if state == "INACTIVE":
                raise Fail(mqc.MQRCCF_CHANNEL_NOT_ACTIVE,
                            String(mqc.MQCACH_CHANNEL_NAME, name, width=20))
            self.monitor.stopped(qm.name, name)  # ends, free to start again
        else:
            self.sim.stop_channel(qm.name, name)
        return []


__all__ = ["CommandServer", "passes"]


#: Set Authority Record's MQAUTH_* values -> SET AUTHREC's AUTHADD/AUTHRMV words.
_AUTH_WORDS = {**{v: k for k, v in AUTHORITIES.items()}, mqc.MQAUTH_ALL: "ALL",
               mqc.MQAUTH_ALL_ADMIN: "ALLADM", mqc.MQAUTH_ALL_MQI: "ALLMQI",
               mqc.MQAUTH_NONE: "NONE"}
#: Refresh Queue Manager's ObjectType -> REFRESH QMGR's OBJECT (None: every kind).
_REFRESH_KINDS: dict[int, str | None] = {
    mqc.MQOT_ALL: None, mqc.MQOT_Q: "QUEUE", mqc.MQOT_LOCAL_Q: "QLOCAL",
    mqc.MQOT_MODEL_Q: "QMODEL", mqc.MQOT_ALIAS_Q: "QALIAS", mqc.MQOT_REMOTE_Q: "QREMOTE",
    mqc.MQOT_CHANNEL: "CHANNEL", mqc.MQOT_PROCESS: "PROCESS", mqc.MQOT_NAMELIST: "NAMELIST",
    mqc.MQOT_TOPIC: "TOPIC", mqc.MQOT_AUTH_INFO: "AUTHINFO", mqc.MQOT_LISTENER: "LISTENER",
    mqc.MQOT_SERVICE: "SERVICE", mqc.MQOT_COMM_INFO: "COMMINFO",
    mqc.MQOT_AUTH_REC: "AUTHREC"}
#: An authority record's ObjectType -> SET AUTHREC's OBJTYPE.
_OBJTYPES = {v: k for k, v in RECORD_TYPES.items()}


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def authrec_mqsc(message: Message) -> list[str]:
    """The SET AUTHREC / DELETE AUTHREC commands a PCF Set / Delete Authority Record stands
    for, one per principal and group (names quoted: they are data). ValueError holding the
    MQRCCF_* reason for what is missing or wrong."""
    def get(pid: int) -> object:
        return next((p.value for p in message.parameters if p.parameter == pid), None)

    objtype = _OBJTYPES.get(get(mqc.MQIACF_OBJECT_TYPE))  # type: ignore[arg-type]
    if objtype is None:
        raise ValueError(mqc.MQRCCF_OBJECT_TYPE_MISSING if get(mqc.MQIACF_OBJECT_TYPE) is None
                         else mqc.MQRCCF_PARM_VALUE_ERROR)
    profile = get(mqc.MQCACF_AUTH_PROFILE_NAME)
    profile = profile.strip() if isinstance(profile, str) else ""
    if not profile and objtype != "QMGR":
        raise ValueError(mqc.MQRCCF_PROFILE_NAME_MISSING)
    entities = [(kind, name.strip()) for kind, pid in (
        ("PRINCIPAL", mqc.MQCACF_PRINCIPAL_ENTITY_NAMES),
        ("GROUP", mqc.MQCACF_GROUP_ENTITY_NAMES))
        for name in (get(pid) or []) if isinstance(name, str) and name.strip()]
    if not entities:
        raise ValueError(mqc.MQRCCF_ENTITY_NAME_MISSING)
    changes = ""
    if message.header.command == mqc.MQCMD_SET_AUTH_REC:
        for keyword, pid in (("AUTHADD", mqc.MQIACF_AUTH_ADD_AUTHS),
                             ("AUTHRMV", mqc.MQIACF_AUTH_REMOVE_AUTHS)):
            values = get(pid) or []
            if not isinstance(values, list) or any(v not in _AUTH_WORDS for v in values):
                raise ValueError(mqc.MQRCCF_AUTH_VALUE_ERROR)
            if values:
                changes += f" {keyword}({','.join(_AUTH_WORDS[v] for v in values)})"
    verb = "SET" if message.header.command == mqc.MQCMD_SET_AUTH_REC else "DELETE"
    where = f" PROFILE({_quoted(profile)})" if profile else ""
    return [f"{verb} AUTHREC{where} OBJTYPE({objtype}) {kind}({_quoted(name)}){changes}"
            for kind, name in entities]

