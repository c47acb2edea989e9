"""MQSC commands applied to a network's queue managers one at a time, as runmqsc does.

`Session` is runmqsc over a `Network`: `run(text)` reads and applies the commands of some
MQSC text, `execute(command)` applies one `Command`; each gives an `Outcome` with MQ's AMQ
message for it (AMQ8006I queue created, AMQ8147E object not found, AMQ8405I syntax error
...). A command that fails changes nothing and the next ones are still applied; `summary()`
are runmqsc's closing lines. `parse_mqsc` applies a whole text (raising the first failure
unless given `on_error`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from traceroute.sim.crtmqm import RECORD_KEYS, default_object, record_key
from traceroute.sim.mqsc.syntax import (
    COMMAND_OPTIONS,
    SYNTAX_ERROR,
    Command,
    MQSCError,
    _Header,
    _items,
)
from traceroute.sim.network import (
    QUEUE_KINDS,
    MQObject,
    Network,
    QueueManager,
    key_of,
    materialize,
    pristine,
    store_of,
)

__all__ = ["FAILED", "OK", "SKIPPED", "SYNTAX", "UNVERIFIED", "Outcome", "Session",
           "parse_mqsc"]

OK, SYNTAX, FAILED, SKIPPED = "ok", "syntax", "failed", "skipped"
NOT_FOUND = "AMQ8147E: IBM MQ object {name} not found."
EXISTS = "AMQ8150E: IBM MQ object already exists."

#: Object type -> the AMQ messages of DEFINE, ALTER and DELETE done (AMQ8xxx Administration).
#: Checked against IBM's "AMQ8xxx: Administration" page and runmqsc transcripts of real
#: queue managers (docs/simulator.md names them); the numbers in UNVERIFIED were not found
#: in any source here and are this model's best guess.
_DONE = {
    "QUEUE": ("AMQ8006I: IBM MQ queue created.", "AMQ8008I: IBM MQ queue changed.",
              "AMQ8007I: IBM MQ queue deleted."),
    "CHANNEL": ("AMQ8014I: IBM MQ channel created.", "AMQ8016I: IBM MQ channel changed.",
                "AMQ8015I: IBM MQ channel deleted."),
    "PROCESS": ("AMQ8010I: IBM MQ process created.", "AMQ8011I: IBM MQ process changed.",
                "AMQ8012I: IBM MQ process deleted."),
    # AMQ8550I is DISPLAY NAMELIST's "Display namelist details."
    "NAMELIST": ("AMQ8552I: IBM MQ namelist created.", "AMQ8551I: IBM MQ namelist changed.",
                 "AMQ8553I: IBM MQ namelist deleted."),
    "AUTHINFO": ("AMQ8563I: IBM MQ authentication information object created.",
                 "AMQ8567I: IBM MQ authentication information changed.",
                 "AMQ8564I: IBM MQ authentication information object deleted."),
    "LISTENER": ("AMQ8626I: IBM MQ listener created.", "AMQ8623I: IBM MQ listener changed.",
                 "AMQ8628I: IBM MQ listener deleted."),
    # AMQ8630I/AMQ8631I are DISPLAY LISTENER's and DISPLAY LSSTATUS's headings
    "SERVICE": ("AMQ8625I: IBM MQ service created.", "AMQ8624I: IBM MQ service changed.",
                "AMQ8627I: IBM MQ service deleted."),
    "TOPIC": ("AMQ8690I: IBM MQ topic created.", "AMQ8691I: IBM MQ topic changed.",
              "AMQ8692I: IBM MQ topic deleted."),
    # AMQ8096I is DISPLAY SUB's "IBM MQ subscription inquired."
    "SUB": ("AMQ8094I: IBM MQ subscription created.", "AMQ8097I: IBM MQ subscription changed.",
            "AMQ8095I: IBM MQ subscription deleted."),
    "COMMINFO": ("AMQ8858I: IBM MQ comminfo created.", "AMQ8859I: IBM MQ comminfo changed.",
                 "AMQ8860I: IBM MQ comminfo deleted."),
}
#: z/OS-only objects (CFSTRUCT, STGCLASS ...): z/OS answers with CSQ messages, not modelled.
_OTHER_DONE = ("AMQ8006I: IBM MQ object created.", "AMQ8008I: IBM MQ object changed.",
               "AMQ8007I: IBM MQ object deleted.")
_ACTIONS = {
    ("START", "CHANNEL"): "AMQ8018I: Start IBM MQ channel accepted.",
    ("STOP", "CHANNEL"): "AMQ8019I: Stop IBM MQ channel accepted.",
    ("PING", "CHANNEL"): "AMQ8020I: Ping IBM MQ channel complete.",
    ("RESET", "CHANNEL"): "AMQ8023I: IBM MQ channel reset.",
    ("CLEAR", "QLOCAL"): "AMQ8022I: IBM MQ queue cleared.",
    ("START", "LISTENER"): "AMQ8021I: Request to start IBM MQ listener accepted.",
    ("STOP", "LISTENER"): "AMQ8706I: Request to stop IBM MQ listener accepted.",
    ("START", "SERVICE"): "AMQ8733I: Request to start Service accepted.",
    ("STOP", "SERVICE"): "AMQ8734I: Request to stop Service accepted.",
    ("SET", "CHLAUTH"): "AMQ8877I: IBM MQ channel authentication record set.",
    ("SET", "AUTHREC"): "AMQ8862I: IBM MQ authority record set.",
    ("DELETE", "AUTHREC"): "AMQ8863I: IBM MQ authority record deleted.",
    ("SET", "POLICY"): "AMQ9086I: IBM MQ policy set.",
    ("DELETE", "POLICY"): "AMQ9087I: IBM MQ policy deleted.",
    ("REFRESH", "SECURITY"): "AMQ8560I: IBM MQ security cache refreshed.",
    ("REFRESH", "CLUSTER"): "AMQ8559I: Refresh Cluster accepted.",
}
#: The AMQ numbers above that no source here confirmed (docs/simulator.md lists them).
UNVERIFIED = frozenset({
    "AMQ8011I", "AMQ8012I", "AMQ8553I", "AMQ8564I", "AMQ8628I", "AMQ8624I", "AMQ8627I",
    "AMQ8692I", "AMQ8097I", "AMQ8095I", "AMQ8859I", "AMQ8860I", "AMQ8020I", "AMQ8022I",
    "AMQ8023I", "AMQ8734I", "AMQ8863I", "AMQ9086I", "AMQ9087I", "AMQ8559I"})
#: What this model answers for a command that changes no definition and that it does not
#: model (runmqsc over a live estate answers those itself): no MQ message number.
_ACCEPTED = "AMQ0000I: command read; the simulator does not model it."
#: START/STOP CHANNEL of a channel not defined (and not possibly an auto-defined cluster
#: sender): runmqsc's answer.
CHANNEL_NOT_FOUND = "AMQ8227E: Channel {name} not found."
#: SET CHLAUTH ... ACTION(REMOVE) of a record that does not exist.
RECORD_NOT_FOUND = "AMQ8884E: Channel authentication record not found."
@dataclass(frozen=True)
class Outcome:
    """What one command did, as runmqsc tells it: `status` (OK, SYNTAX, FAILED, SKIPPED),
    MQ's `message` ('AMQ8006I: IBM MQ queue created.'), and for a failure the MQSCError
    with this model's reason (file, line, column)."""

    status: str
    message: str
    command: Command | None = None
    error: MQSCError | None = None
    qmgr: str = ""

    @property
    def ok(self) -> bool:
        """True unless the command had a syntax error or failed."""
        return self.status in (OK, SKIPPED)

    @property
    def amq(self) -> str:
        """The message number ('AMQ8147E')."""
        return self.message.split(":", 1)[0]

    @property
    def located(self) -> str:
        """'FILE:LINE:COL: AMQnnnnX: MQ's text (this model's reason)' for a failure."""
        if self.error is None:
            return self.message
        e = self.error
        where = f"{e.source}:{e.line}:{e.column}" if e.line else e.source
        return f"{where}: {self.message} ({e.reason})"


def _kind_family(kind: str) -> str:
    return "QUEUE" if kind in QUEUE_KINDS else kind


def _object_attrs(command: Command) -> dict[str, str]:
    return {k: v for k, v in command.attrs.items() if k not in COMMAND_OPTIONS}


def _where(obj: MQObject) -> str:
    if obj.system and not obj.line:
        return "crtmqm"
    return f"{obj.source}, line {obj.line}" if obj.line else obj.source or "elsewhere"


class _Failed(Exception):
    """A command that cannot be processed: its AMQ message and this model's reason."""

    def __init__(self, message: str, reason: str, keyword: str | None = None) -> None:
        super().__init__(reason)
        self.message = message
        self.reason = reason
        self.keyword = keyword


class Session:
    """runmqsc over a network: commands applied one at a time, each with its Outcome.

    `qmgr` is the queue manager commands go to until a '* Queue manager name: X' header
    names another (None: a command before any header fails). `reading` is True when
    MQSC is read as configuration: DISPLAY and the other commands that change no
    definition are then skipped (SKIPPED); runmqsc over a live estate sets it False and
    answers those itself.
    """

    def __init__(self, network: Network | None = None, qmgr: str | None = None, *,
                 reading: bool = True) -> None:
        self.network = network if network is not None else Network()
        self.current = qmgr
        self.reading = reading
        self.read = 0
        self.syntax_errors = 0
        self.failed = 0

    # --- running text and commands --------------------------------------------------

    def run(self, text: str, source: str = "<mqsc>") -> list[Outcome]:
        """Read and apply every command of `text`; the Outcome of each, in order."""
        return list(self.iterate(text, source))

    def iterate(self, text: str, source: str = "<mqsc>") -> Iterator[Outcome]:
        """Outcomes as `run` gives them, one at a time (each applied before it is given)."""
        for item in _items(text.removeprefix("\ufeff"), source):
            if isinstance(item, _Header):
                self.header(item.name)
            elif isinstance(item, MQSCError):
                if self.current is not None:
                    self.network.qmgr(self.current)  # the queue manager runmqsc talks to
                yield self._count(Outcome(SYNTAX if item.syntax else FAILED, item.amq,
                                          error=item, qmgr=self.current or ""))
            else:
                yield self.execute(item)

    def header(self, name: str) -> None:
        """A '* Queue manager name: NAME' comment: the next commands go to NAME."""
        self.current = name
        self.network.qmgr(name)

    def execute(self, command: Command) -> Outcome:
        """Apply one command; its Outcome (the network is unchanged when it failed)."""
        if self.current is None:
            error = command.error("no queue manager is named for this command: give qmgr= "
                                  "or a '* Queue manager name: NAME' comment before it",
                                  amq="AMQ8118E: IBM MQ queue manager does not exist.")
            return self._count(Outcome(FAILED, error.amq, command, error))
        qm = self.network.qmgr(self.current)
        try:
            message = self._apply(qm, command)
        except _Failed as f:
            error = command.error(f.reason, f.keyword, amq=f.message)
            return self._count(Outcome(FAILED, f.message, command, error, qm.name))
        status = SKIPPED if message is None else OK
        return self._count(Outcome(status, message or "", command, None, qm.name))

    def _count(self, outcome: Outcome) -> Outcome:
        self.read += 1
        if outcome.status == SYNTAX:
            self.syntax_errors += 1
        elif outcome.status == FAILED:
            self.failed += 1
        return outcome

    def summary(self) -> list[str]:
        """runmqsc's closing lines: commands read, with a syntax error, not processed."""
        def count(n: int, one: str, many: str) -> str:
            return one if n == 1 else many.format(n=n)
        return [
            count(self.read, "One MQSC command read.", "{n} MQSC commands read."),
            "No commands have a syntax error." if not self.syntax_errors else
            count(self.syntax_errors, "One command has a syntax error.",
                  "{n} commands have a syntax error."),
            "All valid MQSC commands were processed." if not self.failed else
            count(self.failed, "One valid MQSC command could not be processed.",
                  "{n} valid MQSC commands could not be processed."),
        ]

    # --- what each command does ---------------------------------------------------------

    def _apply(self, qm: QueueManager, command: Command) -> str | None:
        verb, kind = command.verb, command.kind
        if verb in ("DEFINE", "ALTER", "DELETE"):
            if kind == "QMGR":
                qm.attrs.update(_object_attrs(command))
                return "AMQ8005I: IBM MQ queue manager changed."
            if kind in ("AUTHREC", "POLICY"):
                return self._record(qm, command)
            assert command.name is not None or kind == "SUB"
            if command.name is None:  # ALTER/DELETE SUB by SUBID: not kept
                return _DONE["SUB"][("DEFINE", "ALTER", "DELETE").index(verb)]
            return self._change(qm, command)
        if verb in ("START", "STOP") and kind == "CHANNEL":
            return self._channel_status(qm, command)
        if verb in ("START", "STOP") and kind in ("LISTENER", "SERVICE"):
            return self._run_state(qm, command)
        if verb == "SET" and kind in RECORD_KEYS:
            return self._record(qm, command)
        if (verb, kind) in _ACTIONS:
            return _ACTIONS[(verb, kind)]
        if verb == "DISPLAY" or self.reading:
            return None
        return _ACCEPTED

    def _change(self, qm: QueueManager, command: Command) -> str:
        verb, kind, name = command.verb, command.kind, command.name
        assert name is not None
        store = store_of(qm, kind)
        key = key_of(kind, name)
        existing: MQObject | None = store.get(key)
        done = _DONE.get(_kind_family(kind), _OTHER_DONE)
        if existing is not None and existing.kind != kind:
            if verb == "DEFINE":
                raise _Failed(EXISTS, f"{name} on {qm.name} is a {existing.kind} (defined at "
                              f"{_where(existing)}): the queue types share one name space and "
                              f"DEFINE {kind} cannot change the type; DELETE it first")
            raise _Failed(NOT_FOUND.format(name=name), f"{name} on {qm.name} is a "
                          f"{existing.kind} (defined at {_where(existing)}), not a {kind}")
        if existing is None and verb != "DEFINE":
            raise _Failed(NOT_FOUND.format(name=name), f"{kind} {name} is not defined on "
                          f"{qm.name}")
        if verb == "DELETE":
            assert existing is not None
            store.forget(key)
            if kind == "CHANNEL":
                qm.stopped.discard(name)
            qm.running.discard((kind, name))
            return done[2]
        attrs = _object_attrs(command)
        if existing is not None and verb == "ALTER":
            self._check_type(command, existing, attrs)
            own = materialize(qm, existing)
            if existing.system:
                own.source, own.line = command.source, command.line
            own.attrs.update(attrs)
            self._settle(store, key, own)
            return done[1]
        if existing is not None and "REPLACE" not in command.attrs:
            raise _Failed(EXISTS, f"{kind} {name} already exists on {qm.name} (defined at "
                          f"{_where(existing)}); MQ refuses to define it again without "
                          "REPLACE")
        for needs, keyword in (("CHANNEL", "CHLTYPE"), ("AUTHINFO", "AUTHTYPE")):
            if kind == needs and not attrs.get(keyword) and "LIKE" not in command.attrs:
                raise _Failed(SYNTAX_ERROR, f"DEFINE {kind}({name}) needs {keyword}")
        if existing is not None:
            self._check_type(command, existing, attrs)
        attrs = {**self._model(qm, command, store, attrs), **attrs}
        new = MQObject(kind, name, attrs, command.source, command.line)
        store[key] = new
        self._settle(store, key, new)
        return done[0]

    @staticmethod
    def _settle(store: dict, key: object, obj: MQObject) -> None:
        """A SYSTEM.* object made exactly as crtmqm made it again is crtmqm's again (so
        outputs leave it out as an unaltered default)."""
        if obj.name.startswith("SYSTEM.") and pristine(obj):
            dict.__delitem__(store, key)

    @staticmethod
    def _check_type(command: Command, existing: MQObject, attrs: dict[str, str]) -> None:
        for keyword in ("CHLTYPE", "AUTHTYPE"):
            old = existing.get(keyword)
            new = attrs.get(keyword, old)
            if old and new != old:
                raise _Failed(NOT_FOUND.format(name=existing.name),
                              f"{existing.kind} {existing.name} has {keyword}({old}) "
                              f"(defined at {_where(existing)}); it cannot become {new}: "
                              "DELETE it first", keyword)

    @staticmethod
    def _model(qm: QueueManager, command: Command, store: dict,
               attrs: dict[str, str]) -> dict[str, str]:
        """The attributes DEFINE starts from: LIKE's object's, else the type's default
        object's as it is now (crtmqm's values overlaid with its alterations)."""
        kind = command.kind
        if "LIKE" in command.attrs:
            name = command.attrs["LIKE"]
            model = store.get(key_of(kind, name))
            if model is None or model.kind != kind:
                raise _Failed(NOT_FOUND.format(name=name), f"LIKE({name}): no {kind} of "
                              f"that name is defined on {qm.name}", "LIKE")
            for keyword in ("CHLTYPE", "AUTHTYPE"):
                if attrs.get(keyword, model.get(keyword)) != model.get(keyword):
                    raise _Failed(SYNTAX_ERROR, f"LIKE({name}) is a {model.get(keyword)} "
                                  f"{kind}, not {attrs[keyword]}", "LIKE")
            return dict(model.attrs)
        subtype = attrs.get("CHLTYPE" if kind == "CHANNEL" else "AUTHTYPE", "")
        name = default_object(kind, subtype if kind in ("CHANNEL", "AUTHINFO") else "")
        if not name:
            return {}
        model = store.get(key_of(kind, name))
        if model is None:
            raise _Failed(NOT_FOUND.format(name=name), f"DEFINE {kind} takes its defaults "
                          f"from {name}, which was deleted on {qm.name}")
        return dict(model.attrs)

    def _channel_status(self, qm: QueueManager, command: Command) -> str:
        name = command.name
        assert name is not None
        if name not in qm.channels and not _in_a_cluster(qm):  # else an auto-defined
            raise _Failed(CHANNEL_NOT_FOUND.format(name=name),  # cluster sender, perhaps
                          f"{command.verb} CHANNEL: channel {name} is not defined on {qm.name}")
        if command.verb == "START":
            qm.stopped.discard(name)
        elif command.attrs.get("STATUS", "STOPPED") != "INACTIVE":
            qm.stopped.add(name)
        return _ACTIONS[(command.verb, "CHANNEL")]

    def _run_state(self, qm: QueueManager, command: Command) -> str:
        kind, name = command.kind, command.name
        if name is None:
            raise _Failed(SYNTAX_ERROR, f"{command.verb} {kind} needs the {kind.lower()}'s "
                          "name in parentheses")
        if (kind, name) not in qm.others:
            raise _Failed(NOT_FOUND.format(name=name), f"{kind} {name} is not defined on "
                          f"{qm.name}")
        if command.verb == "START":
            qm.running.add((kind, name))
        else:
            qm.running.discard((kind, name))
        return _ACTIONS[(command.verb, kind)]

    @staticmethod
    def _record(qm: QueueManager, command: Command) -> str:
        """SET CHLAUTH / SET AUTHREC / SET POLICY (and DELETE AUTHREC/POLICY): kept by what
        identifies the record; ACTION(REMOVE)/(REMOVEALL) and DELETE take them away."""
        kind = command.kind
        attrs = dict(command.attrs)
        name = command.name if command.name is not None else attrs.get("PROFILE", "")
        key = record_key(kind, name, attrs)
        action = attrs.get("ACTION", "")
        if kind == "CHLAUTH" and action == "REMOVE" and key not in qm.records:
            raise _Failed(RECORD_NOT_FOUND, f"no {attrs.get('TYPE', '')} channel "
                          f"authentication record for {name} on {qm.name} to remove")
        if command.verb == "DELETE" or action == "REMOVE":
            qm.records.pop(key, None)
        elif action == "REMOVEALL":
            for k in [k for k in qm.records if k[:3] == key[:3]]:
                del qm.records[k]
        else:
            if kind == "AUTHREC":  # grants accumulate: AUTHADD adds, AUTHRMV takes away
                from traceroute.sim.authority import expand, spelled

                old = qm.records.get(key)
                had = expand(old.attrs.get("AUTHADD", "")) if old is not None else set()
                now = (had - expand(attrs.pop("AUTHRMV", ""))) | \
                    expand(attrs.pop("AUTHADD", ""))
                attrs["AUTHADD"] = spelled(now)
            qm.records[key] = MQObject(kind, name, attrs, command.source, command.line)
        return _ACTIONS[(command.verb, kind)]


def _in_a_cluster(qm: QueueManager) -> bool:
    """True when qm takes part in a cluster (a repository, or a cluster channel of its own):
    its auto-defined cluster senders are channels MQ knows without a definition here."""
    return bool(qm.attrs.get("REPOS") or qm.attrs.get("REPOSNL")) or any(
        ch.get("CHLTYPE") in ("CLUSSDR", "CLUSRCVR") for ch in qm.channels.values())


def parse_mqsc(text: str, *, source: str = "<mqsc>", qmgr: str | None = None,
               network: Network | None = None,
               on_error: Callable[[Outcome], None] | None = None) -> Network:
    """Apply MQSC text to `network` (a new one if None); `qmgr` until a header names one.
    Each command that fails goes to `on_error` and the rest are applied; without
    `on_error` the first failure raises its MQSCError (the commands before it applied)."""
    session = Session(network, qmgr)
    for outcome in session.iterate(text, source):
        if not outcome.ok:
            if on_error is None:
                assert outcome.error is not None
                raise outcome.error
            on_error(outcome)
    return session.network
