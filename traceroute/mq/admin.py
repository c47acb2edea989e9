"""Administration of a queue manager: one PCF command out, every response back, typed.

Two seams, so that every way of reaching a queue manager plugs in at one of them:

* `CommandTransport` -- `execute(request, wait)` sends one PCF command (a `pcf.Message`)
  and returns every response message up to and including the one with Control
  MQCFC_LAST. `PCFOverQueues` does it over any `traceroute.mq.Transport`: the simulated
  estate (`SimTransport`) or a real queue manager through IBM's ibmmq or pymqi
  (`MQTransport`, with trace's connection options): it puts the command to
  SYSTEM.ADMIN.COMMAND.QUEUE (MsgType MQMT_REQUEST, Format MQADMIN, Report
  MQRO_PASS_DISCARD_AND_EXPIRY | MQRO_DISCARD_MSG and an expiry, so an unanswered command
  does not linger) with a temporary dynamic reply queue made from SYSTEM.DEFAULT.MODEL.QUEUE
  (both configurable), and gets the responses by CorrelId = the command's MsgId. A transport
  that speaks MQSC or JSON instead of PCF (MQ's REST API) implements `execute` by
  translating, or `Admin`'s methods directly.
* `Admin` -- the questions commands ask (queue and channel status, definitions, cluster
  queue managers) as typed `traceroute.status` values; the two commands that change a
  queue manager (`start_channel`, `stop_channel`, `reset_queue_stats`) are separate
  methods, used only by commands whose purpose that is.

Nothing waits without bound and nothing is believed blindly: the responses must come within
`wait` seconds (the clock of the transport), end with MQCFC_LAST, be MQCFT_RESPONSE to the
command sent, decode with this project's decoder, and number at most `max_responses`;
otherwise `AdminError` says which in one line. A command the queue manager refuses is
`traceroute.status.CommandFailed` (its MQRC_*/MQRCCF_* reason); a generic name that
matches nothing is an empty answer, not an error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Protocol

from pcf import mqc
from pcf.decoder import decode
from pcf.encoder import encode
from pcf.errors import PCFError
from pcf.model import Message, Parameter
from pcf.mqmd import MQMD
from traceroute.mq.transport import Transport
from traceroute.status import commands as cmd
from traceroute.status import responses as resp
from traceroute.status.commands import COMMAND_NAMES, CommandFailed, failure_of, is_generic
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    QmgrStatus,
    QueueStatus,
    ResetStats,
)

COMMAND_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"
#: The prefix of the temporary dynamic reply queue (MQ adds a unique suffix).
REPLY_PREFIX = "MQROUTE.ADMIN"
#: Seconds to wait for all the responses to one command.
WAIT = 30.0
#: The most responses one command may have (one per object: a queue manager's objects).
MAX_RESPONSES = 1_000_000
#: Reasons that mean "nothing matched" for a generic name: an empty answer.
NOTHING_FOUND = frozenset({mqc.MQRC_UNKNOWN_OBJECT_NAME, mqc.MQRCCF_CHANNEL_NOT_FOUND,
                           mqc.MQRCCF_CHL_STATUS_NOT_FOUND, mqc.MQRCCF_NONE_FOUND,
                           mqc.MQRC_NO_SUBSCRIPTION})


class AdminError(RuntimeError):
    """The administration exchange failed (no response in time, a response that never
    ends, one that is not a response to the command): one line saying which."""


class CommandTransport(Protocol):
    """Sends one PCF command to one queue manager and returns all its responses."""

    qmgr_name: str

    def execute(self, request: Message, *, wait: float = WAIT) -> list[Message]:
        """Every response to `request`, the last with Control MQCFC_LAST."""

    def close(self) -> None:
        """Delete the reply queue, disconnect."""


def _label(request: Message) -> str:
    return COMMAND_NAMES.get(request.header.command, f"command {request.header.command}")


def check_responses(request: Message, responses: list[Message], qmgr: str) -> None:
    """AdminError when a response is not MQCFT_RESPONSE to `request`'s command."""
    for n, m in enumerate(responses, start=1):
        h = m.header
        if h.type not in (mqc.MQCFT_RESPONSE, mqc.MQCFT_XR_MSG, mqc.MQCFT_XR_ITEM,
                          mqc.MQCFT_XR_SUMMARY):
            raise AdminError(f"{_label(request)} to {qmgr}: response {n} has MQCFH Type "
                             f"{h.type}, not MQCFT_RESPONSE (2): not an answer to a command")
        if h.command != request.header.command:
            raise AdminError(f"{_label(request)} to {qmgr}: response {n} answers command "
                             f"{h.command}, not {request.header.command}")


@dataclass
class PCFOverQueues:
    """CommandTransport over a queue transport: the command queue, a reply queue."""

    transport: Transport
    command_queue: str = COMMAND_QUEUE
    model_queue: str = MODEL_QUEUE
    target_qmgr: str = ""             # another queue manager's command server, through this one
    max_responses: int = MAX_RESPONSES
    _reply_q: str = field(default="", repr=False)
    _output: object = field(default=None, repr=False)

    @property
    def qmgr_name(self) -> str:
        """The queue manager the commands go to."""
        return self.target_qmgr or self.transport.qmgr_name

    def _open(self) -> tuple[str, object]:
        if not self._reply_q:
            self._reply_q = self.transport.open_reply_queue(self.model_queue, REPLY_PREFIX)
        if self._output is None:
            self._output = self.transport.open_output(self.command_queue,
                                                      target_qmgr=self.target_qmgr)
        return self._reply_q, self._output

    def execute(self, request: Message, *, wait: float = WAIT) -> list[Message]:
        """Put the command, then get responses by CorrelId until MQCFC_LAST (or `wait`)."""
        reply_q, output = self._open()
        label = f"{_label(request)} to {self.qmgr_name}"
        md = MQMD(msg_type=mqc.MQMT_REQUEST, format="MQADMIN", reply_to_q=reply_q,
                  reply_to_q_mgr=self.transport.qmgr_name if self.target_qmgr else "",
                  report=mqc.MQRO_PASS_DISCARD_AND_EXPIRY | mqc.MQRO_DISCARD_MSG,
                  expiry=max(1, int(wait * 10)) + 600, persistence=mqc.MQPER_NOT_PERSISTENT,
                  encoding=mqc.MQENC_REVERSED, coded_char_set_id=1208)
        sent = self.transport.put(output, md, encode(request, encoding=mqc.MQENC_REVERSED,
                                                     ccsid=1208))
        clock = self.transport.clock
        deadline = clock() + wait
        out: list[Message] = []
        while True:
            left = max(0.0, deadline - clock())
            got = self.transport.get(reply_q, correl_id=sent.msg_id, wait=left,
                                     syncpoint=False)
            if got is None:
                if out:
                    raise AdminError(f"{label}: the responses never ended: {len(out)} came, "
                                     f"none with MQCFC_LAST, within {wait:g} s")
                raise AdminError(f"{label}: no response within {wait:g} s (is the command "
                                 f"server running? is {self.command_queue} served?)")
            rmd, data = got
            try:
                message = decode(data, encoding=rmd.encoding, ccsid=rmd.coded_char_set_id,
                                 fmt=rmd.format)
            except PCFError as e:
                raise AdminError(f"{label}: response {len(out) + 1} is not PCF: {e}") from None
            out.append(message)
            check_responses(request, out[-1:], self.qmgr_name)
            if message.header.control == mqc.MQCFC_LAST:
                return out
            if len(out) >= self.max_responses:
                raise AdminError(f"{label}: over {self.max_responses} responses and still no "
                                 "MQCFC_LAST: not read further")

    def close(self) -> None:
        """Close the transport (it deletes the temporary reply queue)."""
        self.transport.close()


@dataclass
class Admin:
    """The typed questions and the few changes, over a CommandTransport.

    `tz` is the queue manager's time zone, for the dates and times its responses carry (a
    simulated queue manager's is UTC; for a real one, give its zone -- default: this
    machine's)."""

    channel: CommandTransport
    tz: tzinfo = UTC
    wait: float = WAIT
    on_command: Callable[[Message], None] | None = None  # sees each command (tests, logs)

    @property
    def qmgr(self) -> str:
        """The queue manager asked."""
        return self.channel.qmgr_name

    def run(self, request: Message, what: str = "", *, generic: bool = False) -> list[Message]:
        """The responses to a command; CommandFailed when it failed (an empty list when a
        generic name matched nothing)."""
        if self.on_command is not None:
            self.on_command(request)
        responses = self.channel.execute(request, wait=self.wait)
        check_responses(request, responses, self.qmgr)
        failed = failure_of(responses[-1], what)
        if failed is not None:
            if generic and failed.reason in NOTHING_FOUND:
                return []
            raise failed
        return [r for r in responses if r.parameters or len(responses) == 1]

    def _read(self, request: Message, what: str, read: Callable[[Message], object]) -> list:
        responses = self.run(request, what, generic=is_generic(what))
        try:
            return [read(m) for m in responses if m.parameters]
        except resp.ResponseError as e:
            raise AdminError(f"{_label(request)} to {self.qmgr}: {e}") from None

    # --- questions --------------------------------------------------------------------------

    def queue_manager(self) -> Definition:
        """The queue manager's attributes (Inquire Queue Manager)."""
        found = self._read(cmd.inquire_qmgr(), self.qmgr,
                           lambda m: resp.definition_from(m, self.qmgr, "QMGR"))
        if not found:
            raise AdminError(f"Inquire Queue Manager to {self.qmgr}: an empty response")
        return found[0]

    def qmgr_status(self) -> QmgrStatus:
        """DISPLAY QMSTATUS (Inquire Queue Manager Status): status, start, connections."""
        found = self._read(cmd.inquire_qmgr_status(), self.qmgr,
                           lambda m: resp.qmgr_status_from(m, self.qmgr, self.tz))
        if not found:
            raise AdminError(f"Inquire Queue Manager Status to {self.qmgr}: an empty response")
        return found[0]

    def active_listeners(self) -> int:
        """How many listeners run (or start, stop): the responses to Inquire Channel Listener
        Status of every listener, as mq_prometheus counts them (none: 0)."""
        try:
            responses = self.run(cmd.inquire_listener_status("*"), "*", generic=True)
        except CommandFailed as e:
            if e.reason == mqc.MQRCCF_LSTR_STATUS_NOT_FOUND:
                return 0
            raise
        return sum(1 for m in responses if m.parameters)

    def queues(self, name: str = "*", qtype: int = mqc.MQQT_ALL, *,
               where: Parameter | None = None) -> list[Definition]:
        """Queue definitions (Inquire Queue), every attribute."""
        return self._read(cmd.inquire_queue(name, qtype, where=where), name,
                          lambda m: resp.definition_from(m, self.qmgr, "QUEUE"))

    def queue_status(self, name: str = "*", *,
                     where: Parameter | None = None) -> list[QueueStatus]:
        """DISPLAY QSTATUS TYPE(QUEUE) of local queues (Inquire Queue Status)."""
        return self._read(cmd.inquire_queue_status(name, where=where), name,
                          lambda m: resp.queue_status_from(m, self.qmgr, self.tz))

    def handles(self, name: str = "*") -> list[HandleStatus]:
        """DISPLAY QSTATUS TYPE(HANDLE): the handles open on local queues."""
        return self._read(cmd.inquire_queue_status(name, handles=True), name,
                          lambda m: resp.handle_status_from(m, self.qmgr))

    def channels(self, name: str = "*", chltype: int | None = None, *,
                 where: Parameter | None = None) -> list[Definition]:
        """Channel definitions (Inquire Channel), every attribute."""
        return self._read(cmd.inquire_channel(name, chltype, where=where), name,
                          lambda m: resp.definition_from(m, self.qmgr, "CHANNEL"))

    def channel_status(self, name: str = "*", *, saved: bool = False,
                       where: Parameter | None = None) -> list[ChannelStatus]:
        """DISPLAY CHSTATUS: the channels with a status (none: an empty list)."""
        responses = self.run(cmd.inquire_channel_status(name, saved=saved, where=where), name,
                             generic=True)
        try:
            return [resp.channel_status_from(m, self.qmgr, self.tz) for m in responses
                    if m.parameters]
        except resp.ResponseError as e:
            raise AdminError(f"Inquire Channel Status to {self.qmgr}: {e}") from None

    def queue_names(self, name: str = "*", qtype: int = mqc.MQQT_ALL) -> list[str]:
        """Queue names (Inquire Queue Names)."""
        return _names(self.run(cmd.inquire_queue_names(name, qtype), name, generic=True),
                      mqc.MQCACF_Q_NAMES)

    def channel_names(self, name: str = "*") -> list[str]:
        """Channel names (Inquire Channel Names)."""
        return _names(self.run(cmd.inquire_channel_names(name), name, generic=True),
                      mqc.MQCACH_CHANNEL_NAMES)

    def cluster_qmgrs(self, name: str = "*", cluster: str = "") -> list[ClusterQmgr]:
        """The cluster queue managers this one knows (Inquire Cluster Queue Manager)."""
        return self._read(cmd.inquire_cluster_qmgr(name, cluster), name,
                          lambda m: resp.cluster_qmgr_from(m, self.qmgr))

    def topics(self, name: str = "*", topic_type: int = mqc.MQTOPT_LOCAL) -> list[Definition]:
        """Topic objects (Inquire Topic), every attribute (TYPE: LOCAL or CLUSTER)."""
        return self._read(cmd.inquire_topic(name, topic_type), name,
                          lambda m: resp.definition_from(m, self.qmgr, "TOPIC"))

    def subscriptions(self, name: str = "*", *, sub_id: bytes | None = None,
                      subtype: int = mqc.MQSUBTYPE_USER) -> list[Definition]:
        """Subscriptions (Inquire Subscription), every attribute; by SubId when given
        (an unknown one: an empty list)."""
        what = name if sub_id is None else "*"
        request = cmd.inquire_subscription(name, sub_id=sub_id, subtype=subtype)
        responses = self.run(request, what, generic=True)
        try:
            return [resp.definition_from(m, self.qmgr, "SUB") for m in responses
                    if m.parameters]
        except resp.ResponseError as e:
            raise AdminError(f"Inquire Subscription to {self.qmgr}: {e}") from None

    def topic_status(self, topic: str = "#", status_type: int = mqc.MQIACF_TOPIC_STATUS
                     ) -> list[Definition]:
        """DISPLAY TPSTATUS: the attributes that hold for topic strings (or, with
        MQIACF_TOPIC_SUB, their subscriptions); `#` and `+` select many."""
        kind = "TPSTATUS" if status_type == mqc.MQIACF_TOPIC_STATUS else "TPSTATUS_SUB"
        responses = self.run(cmd.inquire_topic_status(topic, status_type), topic, generic=True)
        try:
            return [resp.definition_from(m, self.qmgr, kind) for m in responses
                    if m.parameters]
        except resp.ResponseError as e:
            raise AdminError(f"Inquire Topic Status to {self.qmgr}: {e}") from None

    # --- changes (for the commands whose purpose they are) ---------------------------------

    def start_channel(self, name: str) -> None:
        """START CHANNEL: changes the queue manager."""
        self.run(cmd.start_channel(name), name)

    def stop_channel(self, name: str, *, inactive: bool = False) -> None:
        """STOP CHANNEL: changes the queue manager."""
        self.run(cmd.stop_channel(name, inactive=inactive), name)

    def reset_queue_stats(self, name: str) -> list[ResetStats]:
        """RESET QSTATS: reads and resets the statistics (changes the queue manager)."""
        return self._read(cmd.reset_queue_stats(name), name,
                          lambda m: resp.reset_stats_from(m, self.qmgr))

    def close(self) -> None:
        """Close the command transport."""
        self.channel.close()


def _names(responses: list[Message], pid: int) -> list[str]:
    out: list[str] = []
    for m in responses:
        value = m.get(pid)
        if isinstance(value, list):
            out += [(v.decode("latin-1") if isinstance(v, bytes) else v).rstrip(" \x00")
                    for v in value]
    return out


__all__ = ["MODEL_QUEUE", "Admin", "AdminError", "CommandFailed", "CommandTransport",
           "PCFOverQueues"]
