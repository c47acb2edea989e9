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

from traceroute.sim.crtmqm import default_object
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

__all__ = ["FAILED", "OK", "SKIPPED", "SYNTAX", "Outcome", "Session", "parse_mqsc"]

OK, SYNTAX, FAILED, SKIPPED = "ok", "syntax", "failed", "skipped"
NOT_FOUND = "AMQ8147E: IBM MQ object {name} not found."
EXISTS = "AMQ8150E: IBM MQ object already exists."

#: Object type -> the AMQ messages of DEFINE, ALTER and DELETE done (AMQ8xxx Administration).
_DONE = {
    "QUEUE": ("AMQ8006I: IBM MQ queue created.", "AMQ8008I: IBM MQ queue changed.",
              "AMQ8007I: IBM MQ queue deleted."),
    "CHANNEL": ("AMQ8014I: IBM MQ channel created.", "AMQ8016I: IBM MQ channel changed.",
                "AMQ8015I: IBM MQ channel deleted."),
    "PROCESS": ("AMQ8010I: IBM MQ process created.", "AMQ8011I: IBM MQ process changed.",
                "AMQ8012I: IBM MQ process deleted."),
    "NAMELIST": ("AMQ8550I: IBM MQ namelist created.", "AMQ8551I: IBM MQ namelist changed.",
                 "AMQ8552I: IBM MQ namelist deleted."),
    "AUTHINFO": ("AMQ8563I: IBM MQ authentication information object created.",
                 "AMQ8567I: IBM MQ authentication information object changed.",
                 "AMQ8564I: IBM MQ authentication information object deleted."),
    "LISTENER": ("AMQ8626I: IBM MQ listener created.", "AMQ8627I: IBM MQ listener changed.",
                 "AMQ8628I: IBM MQ listener deleted."),
    "SERVICE": ("AMQ8629I: IBM MQ service created.", "AMQ8630I: IBM MQ service changed.",
                "AMQ8631I: IBM MQ service deleted."),
    "TOPIC": ("AMQ8690I: IBM MQ topic created.", "AMQ8691I: IBM MQ topic changed.",
              "AMQ8692I: IBM MQ topic deleted."),
    "SUB": ("AMQ8094I: IBM MQ subscription created.", "AMQ8096I: IBM MQ subscription changed.",
            "AMQ8095I: IBM MQ subscription deleted."),
    "COMMINFO": ("AMQ8916I: IBM MQ communication information object created.",
                 "AMQ8917I: IBM MQ communication information object changed.",
                 "AMQ8918I: IBM MQ communication information object deleted."),
}
_OTHER_DONE = ("AMQ8006I: IBM MQ object created.", "AMQ8008I: IBM MQ object changed.",
               "AMQ8007I: IBM MQ object deleted.")
_ACTIONS = {
    ("START", "CHANNEL"): "AMQ8018I: Start IBM MQ channel accepted.",
    ("STOP", "CHANNEL"): "AMQ8019I: Stop IBM MQ channel accepted.",
    ("START", "LISTENER"): "AMQ8021I: Request to start IBM MQ Listener accepted.",
    ("STOP", "LISTENER"): "AMQ8706I: Request to stop IBM MQ Listener accepted.",
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
_ACCEPTED = "AMQ8002I: command accepted."  # what this model says for a command it only reads
#: Keywords of SET CHLAUTH / SET AUTHREC that tell one record from another of the profile.
_RECORD_KEYS = {
    "CHLAUTH": ("TYPE", "ADDRESS", "CLNTUSER", "QMNAME", "SSLPEER", "SSLCERTI", "USERLIST",
                "ADDRLIST"),
    "AUTHREC": ("OBJTYPE", "PRINCIPAL", "GROUP", "PROFILE"),
    "POLICY": (),
}


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
            count(self.read, "1 MQSC command read.", "{n} MQSC commands read."),
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
        if verb == "SET" and kind in _RECORD_KEYS:
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
        name = command.name  # not defined here: an auto-defined cluster sender, perhaps
        assert name is not None
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
        key = (kind, name, *(attrs.get(k, "") for k in _RECORD_KEYS[kind]))
        action = attrs.get("ACTION", "")
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
