"""runmqsc for a simulated queue manager: MQSC commands in, runmqsc's answers out.

Each command stands alone, as with runmqsc: it is echoed with its number, answered (an
AMQ message, the display), and a command that fails does not stop the ones after it. The
end says how many were read, how many had a syntax error and whether every valid one was
processed; `RunResult.ok` is True only when every command succeeded.

DEFINE/ALTER/DELETE and the other commands of definitions go to the MQSC layer
(`traceroute.sim.mqsc.Session`, with MQ's AMQ messages); DELETE QLOCAL of a queue that holds
messages needs PURGE (AMQ8143E otherwise), and CLEAR QLOCAL empties one. START
CHANNEL, STOP CHANNEL, RESET QSTATS and DISPLAY QUEUE/QLOCAL/QREMOTE/QALIAS/QMODEL,
CHANNEL, QMGR, QSTATUS, CHSTATUS, CLUSQMGR, TOPIC (TYPE(LOCAL|CLUSTER|ALL)), SUB
(SUBTYPE(USER|ADMIN|API|PROXY|ALL), DURABLE(YES|NO|ALL), SUBID(...)) and TPSTATUS
(TYPE(TOPIC|SUB|PUB); `#` and `+` in the topic string) are PCF commands to the queue
manager's command server (`traceroute.sim.cmdserver`), shown as runmqsc shows them (ALL,
MONITOR, named attributes, TYPE(HANDLE), SAVED, WHERE(...)).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pcf import mqc
from pcf.model import Message
from traceroute.sim.estate.estate import Estate
from traceroute.sim.events import events_of
from traceroute.sim.mqsc import Session
from traceroute.sim.mqsc.syntax import Command, MQSCError, _Header, _items
from traceroute.status import commands as pcf_commands
from traceroute.status import display, responses
from traceroute.status.commands import failure_of, reason_text
from traceroute.status.where import where_filter
from traceroute.status.words import CHANNEL_TYPE, reverse

_QUEUE_KINDS = {"QUEUE": mqc.MQQT_ALL, "QLOCAL": mqc.MQQT_LOCAL, "QREMOTE": mqc.MQQT_REMOTE,
                "QALIAS": mqc.MQQT_ALIAS, "QMODEL": mqc.MQQT_MODEL}


@dataclass
class RunResult:
    """What runmqsc printed and counted."""

    lines: list[str] = field(default_factory=list)
    read: int = 0
    syntax_errors: int = 0
    failed: int = 0

    @property
    def ok(self) -> bool:
        """True when every command was read and processed."""
        return not self.syntax_errors and not self.failed

    def summary(self) -> list[str]:
        """runmqsc's closing lines (the MQSC layer's wording)."""
        counted = Session()
        counted.read, counted.syntax_errors, counted.failed = (self.read, self.syntax_errors,
                                                               self.failed)
        return counted.summary()


#: RESET QMGR TYPE(STATISTICS)'s line (AMQ0000I: the simulator's own, MQ's is not known here).
STATISTICS_RESET = ("AMQ0000I: statistics written; a new statistics interval begins "
                    "(RESET QMGR TYPE(STATISTICS)).")


class _Failed(Exception):
    """A command that did not succeed: the lines saying why."""

    def __init__(self, *lines: str) -> None:
        super().__init__(lines[0] if lines else "")
        self.lines = list(lines)


def run_mqsc(estate: Estate, qmgr: str, text: str, *, source: str = "<stdin>") -> RunResult:
    """Run MQSC commands on queue manager `qmgr` of the estate, as runmqsc does."""
    estate.qmgr(qmgr)
    result = RunResult([f"Starting MQSC for queue manager {qmgr}.", "", ""])
    runner = _Runner(estate, qmgr)
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    for item in _items(text, source):
        if isinstance(item, _Header):
            continue  # a '* Queue manager name:' comment: runmqsc works on one
        if isinstance(item, Command) and item.verb in ("END", "EXIT", "QUIT"):
            break
        result.read += 1
        if isinstance(item, MQSCError):
            echo = lines[item.line - 1].strip() if 0 < item.line <= len(lines) else ""
            result.lines += [f"{result.read:6d} : {echo}", f"{item.amq}",
                             f"({item.located})", ""]
            if item.syntax:
                result.syntax_errors += 1
            else:
                result.failed += 1
            continue
        result.lines += echo_lines(result.read, item, lines)
        try:
            result.lines += runner.run(item)
        except _Failed as e:
            result.failed += 1
            result.lines += e.lines
        result.lines.append("")
    result.lines += result.summary()
    return result


def echo_lines(number: int, command: Command, lines: list[str]) -> list[str]:
    """runmqsc's echo of a command: the lines as they were typed (quotes, case, and each
    continuation line on its own, after `       : `), the first with the command's number;
    its rebuilt text when the source lines are not at hand."""
    first, last = command.line, max(command.last_line, command.line)
    typed = [line.rstrip("\r").strip() for line in lines[first - 1:last]] \
        if 0 < first <= len(lines) else []
    if not typed:
        return [f"{number:6d} : {command.text}"]
    return [f"{number:6d} : {typed[0]}", *(f"       : {line}" for line in typed[1:])]


class _Runner:
    """Runs one queue manager's commands."""

    def __init__(self, estate: Estate, qmgr: str) -> None:
        self.estate = estate
        self.qmgr = qmgr
        self.server = estate.server
        self.session = Session(estate.sim.network, qmgr, reading=False)
        self._changed = False  # the command went through SimEvents.execute (its events)

    def run(self, command: Command) -> list[str]:
        """One command's output lines (_Failed when it fails); a command that ran is a
        command event (CMDEV), DEFINE/ALTER/DELETE configuration events too (CONFIGEV)."""
        lines = self._run(command)
        events = events_of(self.estate.sim)
        if events is not None and not self._changed:
            events.command_ran(self.qmgr, command)
        return lines

    def _run(self, command: Command) -> list[str]:
        self._changed = False
        verb, kind = command.verb, command.kind
        if verb in ("START", "STOP") and kind == "CHANNEL":
            return self.channel(command)
        if verb == "RESET" and kind == "QSTATS":
            return self.reset(command)
        if verb == "RESET" and kind == "QMGR":
            return self.reset_qmgr(command)
        if verb == "CLEAR" and kind in ("QLOCAL", "QUEUE"):
            return self.clear(command)
        if verb == "DISPLAY":
            return self.display(command)
        return self.change(command)

    # --- definitions ----------------------------------------------------------------------

    def change(self, command: Command) -> list[str]:
        """DEFINE, ALTER, DELETE and the other commands of definitions: the MQSC layer."""
        kind, name = command.kind, command.name or ""
        sim = self.estate.sim
        if command.verb == "DELETE" and kind in ("QLOCAL", "QUEUE") \
                and sim.depth(self.qmgr, name) and "PURGE" not in command.attrs:
            raise _Failed("AMQ8143E: IBM MQ queue not empty.")
        if command.verb == "DELETE" and kind in ("QLOCAL", "QUEUE") and \
                getattr(sim.network.qmgrs[self.qmgr].queues.get(name), "kind", "") == "QLOCAL":
            self._not_open(name)
        events = events_of(sim)
        if events is not None:  # authority, configuration and command events
            outcome, _ = events.execute(self.session, command)
            self._changed = True
        else:
            outcome = self.session.execute(command)
        if not outcome.ok:
            reason = outcome.error.reason if outcome.error is not None else ""
            raise _Failed(outcome.message, *([f"({reason})"] if reason else []))
        if command.verb == "DELETE" and name:
            if kind == "QLOCAL" and name not in sim.network.qmgrs[self.qmgr].queues:
                sim.queues.pop((self.qmgr, name), None)
            self.estate.monitor.forget(self.qmgr, kind, name)
        self.estate.monitor.refresh()
        return [outcome.message] if outcome.message else []

    def clear(self, command: Command) -> list[str]:
        q = self.estate.qmgr(self.qmgr).queues.get(command.name or "")
        if q is None:
            raise _Failed(f"AMQ8147E: IBM MQ object {command.name} not found.")
        if q.kind != "QLOCAL":  # as DELETE/ALTER QLOCAL of another type (the MQSC layer)
            raise _Failed(f"AMQ8147E: IBM MQ object {command.name} not found.",
                          f"({q.name} on {self.qmgr} is a {q.kind}, not a QLOCAL)")
        self._not_open(q.name)
        self.estate.sim.queues.pop((self.qmgr, q.name), None)
        return ["AMQ8022I: IBM MQ queue cleared."]

    def _not_open(self, queue: str) -> None:
        """CLEAR QLOCAL and DELETE QLOCAL fail while the queue is open (a running sending
        channel holds its transmission queue open): AMQ8148E."""
        status = self.estate.monitor.queue_status(self.qmgr, queue)
        if status.ipprocs or status.opprocs:
            raise _Failed("AMQ8148E: IBM MQ object in use.",
                          f"({queue} is open: IPPROCS({status.ipprocs}) "
                          f"OPPROCS({status.opprocs}); DISPLAY QSTATUS({queue}) TYPE(HANDLE) "
                          "shows by whom)")

    # --- PCF through the command server ------------------------------------------------------

    def _execute(self, request: Message, what: str, *, none_ok: bool = False) -> list[Message]:
        responses_ = self.server.execute(self.qmgr, request)
        failed = failure_of(responses_[-1], what)
        if failed is not None and none_ok and failed.reason == mqc.MQRCCF_NONE_FOUND:
            return []  # a WHERE that nothing passes: nothing to show
        if failed is not None:
            note = [f"({what} on {self.qmgr} is not a local queue: "
                    f"{reason_text(failed.reason)})"] \
                if failed.reason == mqc.MQRCCF_Q_WRONG_TYPE else []
            raise _Failed(_failure_line(failed.reason, what), *note)
        return responses_

    def channel(self, command: Command) -> list[str]:
        name = command.name or ""
        if command.verb == "START":
            self._execute(pcf_commands.start_channel(name), name)
            return ["AMQ8018I: Start IBM MQ channel accepted."]
        inactive = command.attrs.get("STATUS", "STOPPED").upper() == "INACTIVE"
        self._execute(pcf_commands.stop_channel(name, inactive=inactive), name)
        return ["AMQ8019I: Stop IBM MQ channel accepted."]

    def reset_qmgr(self, command: Command) -> list[str]:
        """RESET QMGR TYPE(STATISTICS): the statistics collected are written now (the
        other types, of logs and publish/subscribe, are not simulated)."""
        kind = command.attrs.get("TYPE", "").upper()
        if kind != "STATISTICS":
            raise _Failed(f"RESET QMGR TYPE({kind or '?'}): not simulated (only "
                          "TYPE(STATISTICS): the statistics interval ends now)")
        self._execute(pcf_commands.reset_qmgr_statistics(), self.qmgr)
        return [STATISTICS_RESET]

    def reset(self, command: Command) -> list[str]:
        out = []
        for m in self._execute(pcf_commands.reset_queue_stats(command.name or ""),
                               command.name or ""):
            out += display.columns(display.reset_items(responses.reset_stats_from(m,
                                                                                  self.qmgr)))
        return out

    def display(self, command: Command) -> list[str]:
        kind, attrs = command.kind, command.attrs
        name = command.name or ("*" if kind != "QMGR" else "")
        where = None
        if "WHERE" in attrs:
            try:
                where = where_filter(kind, attrs["WHERE"])
            except ValueError as e:
                raise _Failed(f"AMQ8405I: Syntax error detected: {e}") from None
        shown = {k for k in attrs if k not in ("WHERE", "TYPE", "ALL", "MONITOR", "CURRENT",
                                               "SAVED", "CHLTYPE", "CMDSCOPE", "SUBTYPE",
                                               "DURABLE", "SUBID", "SUMMARY")}
        # no attributes named: everything for one object (and for the queue manager), names
        # and types only for a generic name, as runmqsc does
        everything = "ALL" in attrs or (not shown and not name.endswith("*"))
        if kind in _QUEUE_KINDS:
            return self._display_queues(name, kind, where, None if everything else shown)
        if kind == "CHANNEL":
            chltype = reverse(CHANNEL_TYPE).get(attrs.get("CHLTYPE", "").upper())
            found = self._execute(pcf_commands.inquire_channel(name, chltype, where=where), name,
                                  none_ok=True)
            lines = []
            for m in found:
                d = responses.definition_from(m, self.qmgr, "CHANNEL")
                lines += ["AMQ8414I: Display Channel details.",
                          *display.columns(display.definition_items(
                              d, None if everything else shown))]
            return lines
        if kind == "QMGR":
            m = self._execute(pcf_commands.inquire_qmgr(), self.qmgr)[0]
            d = responses.definition_from(m, self.qmgr, "QMGR")
            return ["AMQ8408I: Display Queue Manager details.",
                    *display.columns(display.definition_items(d, None if everything
                                                              else shown))]
        if kind == "QMSTATUS":
            m = self._execute(pcf_commands.inquire_qmgr_status(), self.qmgr)[0]
            tz = self.server.tz
            status = responses.qmgr_status_from(m, self.qmgr, tz)
            return ["AMQ8705I: Display Queue Manager Status Details.",
                    *display.columns(display.qmstatus_items(
                        status, None if "ALL" in attrs else shown, tz))]
        if kind == "QSTATUS":
            return self._display_qstatus(name, attrs, where, shown)
        if kind == "CHSTATUS":
            return self._display_chstatus(name, attrs, where, shown)
        if kind in ("TOPIC", "SUB", "TPSTATUS"):
            return self._display_pubsub(kind, name, attrs, where,
                                        None if everything else shown)
        if kind == "CLUSQMGR":
            lines = []
            for m in self._execute(pcf_commands.inquire_cluster_qmgr(name), name):
                lines += ["AMQ8441I: Display Cluster Queue Manager details.",
                          *display.columns(display.cluster_qmgr_items(
                              responses.cluster_qmgr_from(m, self.qmgr)))]
            return lines
        raise _Failed(f"mqroute: DISPLAY {kind} is not simulated here")

    def _display_pubsub(self, kind: str, name: str, attrs: dict[str, str], where,
                        shown) -> list[str]:
        """DISPLAY TOPIC, SUB and TPSTATUS through Inquire Topic / Subscription / Topic
        Status."""
        if kind == "TOPIC":
            types = {"LOCAL": mqc.MQTOPT_LOCAL, "CLUSTER": mqc.MQTOPT_CLUSTER,
                     "ALL": mqc.MQTOPT_ALL}
            topic_type = types.get(attrs.get("TYPE", "LOCAL").upper())
            if topic_type is None:
                raise _Failed("AMQ8405I: Syntax error detected: TYPE is LOCAL, CLUSTER or ALL")
            found = self._execute(pcf_commands.inquire_topic(name, topic_type, where=where),
                                  name, none_ok=True)
            header, read = "AMQ8633I: Display topic details.", "TOPIC"
        elif kind == "SUB":
            subtype = pcf_commands.SUBTYPES.get(attrs.get("SUBTYPE", "USER").upper())
            if subtype is None:
                raise _Failed("AMQ8405I: Syntax error detected: SUBTYPE is USER, ADMIN, API, "
                              "PROXY or ALL")
            sub_id = attrs.get("SUBID", "")
            try:
                raw = bytes.fromhex(sub_id) if sub_id else None
            except ValueError:
                raise _Failed(f"AMQ8405I: Syntax error detected: SUBID({sub_id}) is not "
                              "hexadecimal") from None
            request = pcf_commands.inquire_subscription(
                name if raw is None else "*", sub_id=raw, subtype=subtype, where=where)
            durable = attrs.get("DURABLE", "ALL").upper()
            found = [m for m in self._execute(request, name, none_ok=True)
                     if durable == "ALL" or
                     responses.definition_from(m, self.qmgr, "SUB").attrs.get("DURABLE")
                     == durable]
            header, read = "AMQ8096I: IBM MQ subscription inquired.", "SUB"
        else:
            types = pcf_commands.TOPIC_STATUS_TYPES
            status_type = types.get(attrs.get("TYPE", "TOPIC").upper())
            if status_type is None:
                raise _Failed("AMQ8405I: Syntax error detected: TYPE is TOPIC, SUB or PUB")
            request = pcf_commands.inquire_topic_status(command_topic(name), status_type,
                                                        where=where)
            found = self._execute(request, name, none_ok=True)
            header = "AMQ8754I: Display topic status details."
            read = "TPSTATUS" if status_type == mqc.MQIACF_TOPIC_STATUS else "TPSTATUS_SUB"
        lines = []
        for m in found:
            d = responses.definition_from(m, self.qmgr, read)
            lines += [header, *display.columns(display.definition_items(d, shown))]
        return lines

    def _display_queues(self, name: str, kind: str, where, shown) -> list[str]:
        request = pcf_commands.inquire_queue(name, _QUEUE_KINDS[kind], where=where)
        lines = []
        for m in self._execute(request, name, none_ok=True):
            d = responses.definition_from(m, self.qmgr, "QUEUE")
            lines += ["AMQ8409I: Display Queue details.",
                      *display.columns(display.definition_items(d, shown))]
        return lines

    def _display_qstatus(self, name: str, attrs: dict[str, str], where, shown) -> list[str]:
        handles = attrs.get("TYPE", "QUEUE").upper() == "HANDLE"
        request = pcf_commands.inquire_queue_status(name, handles=handles, where=where)
        lines = []
        for m in self._execute(request, name, none_ok=True):
            lines.append("AMQ8450I: Display queue status details.")
            if handles:
                lines += display.columns(display.handle_items(
                    responses.handle_status_from(m, self.qmgr)))
                continue
            wanted: set[str] | None = set(shown)
            if "MONITOR" in attrs:
                wanted = {*shown, *display.QSTATUS_MONITOR}
            if not wanted:
                wanted = {"CURDEPTH"}
            if "ALL" in attrs:
                wanted = None
            lines += display.columns(display.queue_status_items(
                responses.queue_status_from(m, self.qmgr), wanted))
        return lines

    def _display_chstatus(self, name: str, attrs: dict[str, str], where, shown) -> list[str]:
        saved = "SAVED" in attrs
        request = pcf_commands.inquire_channel_status(name, saved=saved, where=where)
        try:
            found = self._execute(request, name, none_ok=True)
        except _Failed:
            return ["AMQ8420I: Channel Status not found."]
        wanted: list[str] | None = sorted(shown)
        if "MONITOR" in attrs:
            wanted = [*wanted, *display.CHSTATUS_MONITOR]
        if "ALL" in attrs:
            wanted = None
        lines = []
        for m in found:
            lines += ["AMQ8417I: Display Channel Status details.",
                      *display.columns(display.channel_status_items(
                          responses.channel_status_from(m, self.qmgr), wanted))]
        return lines


def _failure_line(reason: int, what: str) -> str:
    texts = {
        mqc.MQRC_UNKNOWN_OBJECT_NAME: f"AMQ8147E: IBM MQ object {what} not found.",
        mqc.MQRCCF_CHANNEL_NOT_FOUND: f"AMQ8147E: IBM MQ object {what} not found.",
        mqc.MQRCCF_CHL_STATUS_NOT_FOUND: "AMQ8420I: Channel Status not found.",
        mqc.MQRCCF_CHANNEL_IN_USE: f"AMQ9514E: Channel '{what}' is in use.",
        mqc.MQRCCF_CHANNEL_NOT_ACTIVE: f"AMQ9533E: Channel '{what}' is not currently active.",
        # as for DISPLAY QLOCAL of another type (AMQ8148E is "object in use")
        mqc.MQRCCF_Q_WRONG_TYPE: f"AMQ8147E: IBM MQ object {what} not found.",
    }
    plain = {
        mqc.MQRCCF_NONE_FOUND: "no object matches the condition",
        mqc.MQRCCF_EVENTS_DISABLED: "performance events are disabled (ALTER QMGR "
                                    "PERFMEV(ENABLED) first)",
    }
    if reason in texts:
        return texts[reason]
    return f"{plain.get(reason, 'the command failed')}: {reason_text(reason)}"


def command_topic(name: str) -> str:
    """DISPLAY TPSTATUS's topic string ('*' as runmqsc's default name means every one)."""
    return "#" if name == "*" else name
