"""MQSC definitions in, a `traceroute.sim.network.Network` out (and back to MQSC).

Reads MQSC as ``dmpmqcfg`` writes it and as people type it for ``runmqsc``.

Lines
    A command may be continued: when the last non-blank character of a line is ``-`` the
    command goes on with the whole next line (from column 1, leading blanks included); when it
    is ``+`` it goes on from the next line's first non-blank character. The sign is dropped and
    blanks before it are kept, so ``DESCR('Fr+`` / ``   ed')`` is ``Fred`` and ``DESCR('Fr-`` /
    ``   ed')`` is ``Fr   ed``; this holds inside quoted strings too. Comment lines (first
    non-blank character ``*``) and blank lines are skipped, also between the lines of one
    command (``dmpmqcfg`` comments out ALTDATE and ALTTIME that way). A ``;`` at the end of a
    line ends the command even after a continuation sign. Each command starts on a new line.

Words
    Keywords are read in any case. Command and object synonyms are those of the MQSC reference
    ("MQSC command and object synonyms"): ALT, DEF, DIS, REF, STA; CHL, CHS, LSTR, NL, PROC,
    Q, QA, QC, QL, QM, QR (from the DEFINE/DELETE QREMOTE pages), QS, TPC, TPS. DELETE and STOP
    have no synonym. Of the parameters only TARGQ is an old name (of TARGET, alias queues);
    every attribute, unknown ones too, is stored under its keyword in upper case.
    Keywords and values may be separated by blanks and commas.

Values
    Unquoted values are folded to upper case; quoted ones (``'...'``, ``''`` for a quote) keep
    their case but lose trailing blanks, which MQ pads with anyway, so ``DESCR(' ')`` is empty.
    Several values in one pair of parentheses (``NAMES(A, B)``, ``CONNAME(h1(1414),h2(1414))``)
    are joined with ``,``. A keyword with no value (REPLACE, NOSHARE, TRIGGER ...) has the
    value ``''``.

Which queue manager
    A comment ``* Queue manager name: QM1`` (dmpmqcfg's header) names the queue manager of the
    commands that follow it; a later one switches to another, so one file can hold several
    queue managers. Before the first such comment, commands go to the `qmgr` given to
    `parse_mqsc` (`read_mqsc` gives the file name's stem in upper case: ``qm1.mqsc`` -> QM1).
    A header creates its queue manager even when no command follows.

What the commands do
    DEFINE, ALTER and DELETE of QLOCAL, QREMOTE, QALIAS and QMODEL act on
    ``QueueManager.queues``, of CHANNEL on ``QueueManager.channels`` (CHLTYPE is required on
    DEFINE and must be one of SDR, RCVR, CLUSSDR, CLUSRCVR, SVR, RQSTR, SVRCONN, CLNTCONN, AMQP,
    MQTT), and of other object types (TOPIC, SUB, NAMELIST, PROCESS, LISTENER, SERVICE,
    AUTHINFO, COMMINFO and the z/OS STGCLASS, CFSTRUCT, BUFFPOOL, PSID) on
    ``QueueManager.others`` under ``(KIND, NAME)``, uninterpreted. ALTER QMGR merges into
    ``QueueManager.attrs``. As in MQ:

    * DEFINE of a name already in use fails unless REPLACE is given (MQ: AMQ8150E); REPLACE
      replaces the whole definition (attributes not given return to their defaults, which this
      model does not store). Queues of all four types share one name space, and neither
      REPLACE nor ALTER nor DELETE can cross types: DEFINE QLOCAL(X) REPLACE when X is a
      QREMOTE is an error, as is changing a channel's CHLTYPE (delete it first).
    * ALTER merges the attributes given; ALTER and DELETE of an object that is not defined fail
      (MQ: AMQ8147E). DELETE of a channel forgets that it was stopped.
    * LIKE(name) starts from the attributes of that object (same type, same queue manager);
      a LIKE of a SYSTEM.* object that the text does not define is accepted with no attributes.
      REPLACE, NOREPLACE, LIKE, FORCE and CMDSCOPE are options of the command, not attributes.

    STOP CHANNEL(name) adds the channel to ``QueueManager.stopped`` (unless STATUS(INACTIVE),
    which leaves a channel free to start again), START CHANNEL(name) removes it. SET CHLAUTH,
    SET AUTHREC and SET POLICY (several records share one profile name, so they do not fit the
    ``(KIND, NAME)`` key), DELETE AUTHREC and POLICY, ALTER/DELETE SUB by SUBID, DISPLAY, REFRESH,
    RESET, PING, CLEAR, START/STOP of anything but a channel and the rest are read, checked for
    syntax and left out.

Writing
    `to_mqsc` writes dmpmqcfg's layout: per queue manager a header comment, ALTER QMGR,
    DEFINE ... REPLACE for every queue, channel (CHLTYPE first) and other object, names
    quoted, one attribute a line, then STOP CHANNEL for the stopped channels. Reading it back
    gives the same content (only the objects' source and line differ).

Errors
    `MQSCError` says where (file, line, column) and why: unbalanced parentheses or quotes, a
    command or object type MQSC does not have, an object name missing, empty or not a valid MQ
    name, a keyword twice, a bad CHLTYPE, a command left open at the end of the text, no queue
    manager named, and the DEFINE/ALTER/DELETE conflicts above. Unknown attributes are not
    errors. All commands are read before any is applied, so a syntax error leaves the network
    untouched; a conflict found while applying leaves the commands before it applied.
    `read_mqsc` reads files (at most `MAX_MQSC_BYTES` each) as UTF-8 and names the line and
    column of a byte that is not;
    ``MQSCError.located`` is the one-line ``FILE:LINE:COL: reason`` form for users.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from traceroute.sim.network import QUEUE_KINDS, MQObject, Network, QueueManager

__all__ = ["CHANNEL_TYPES", "Command", "MQSCError", "decode_mqsc", "parse_commands", "parse_mqsc",
           "read_mqsc", "to_mqsc"]

#: Full command keywords by every spelling MQSC accepts.
VERBS = {
    "ALTER": "ALTER", "ALT": "ALTER", "DEFINE": "DEFINE", "DEF": "DEFINE", "DELETE": "DELETE",
    "DISPLAY": "DISPLAY", "DIS": "DISPLAY", "REFRESH": "REFRESH", "REF": "REFRESH",
    "START": "START", "STA": "START", "STOP": "STOP", "SET": "SET", "CLEAR": "CLEAR",
    "END": "END", "EXIT": "EXIT", "QUIT": "QUIT", "PING": "PING", "PURGE": "PURGE",
    "RESET": "RESET", "RESOLVE": "RESOLVE", "RESUME": "RESUME", "SUSPEND": "SUSPEND",
    # z/OS only
    "ARCHIVE": "ARCHIVE", "BACKUP": "BACKUP", "RECOVER": "RECOVER", "RVERIFY": "RVERIFY",
    "MOVE": "MOVE",
}
#: Object synonyms -> full object keyword (other object words stand for themselves).
OBJECT_SYNONYMS = {
    "CHL": "CHANNEL", "CHS": "CHSTATUS", "LSTR": "LISTENER", "NL": "NAMELIST",
    "PROC": "PROCESS", "Q": "QUEUE", "QA": "QALIAS", "QC": "QCLUSTER", "QL": "QLOCAL",
    "QM": "QMODEL", "QR": "QREMOTE", "QS": "QSTATUS", "TPC": "TOPIC", "TPS": "TPSTATUS",
}
#: Old parameter names -> the full keyword they stand for.
ATTRIBUTE_SYNONYMS = {"TARGQ": "TARGET"}
#: Object types kept uninterpreted in QueueManager.others.
OTHER_KINDS = ("TOPIC", "SUB", "NAMELIST", "PROCESS", "LISTENER", "SERVICE", "AUTHINFO",
               "COMMINFO", "STGCLASS", "CFSTRUCT", "BUFFPOOL", "PSID")
#: Object types that DEFINE/ALTER/DELETE may name but that are not kept.
IGNORED_KINDS = ("AUTHREC", "POLICY")
CHANNEL_TYPES = ("SDR", "RCVR", "CLUSSDR", "CLUSRCVR", "SVR", "RQSTR", "SVRCONN", "CLNTCONN",
                 "AMQP", "MQTT")
#: Keywords of the command itself, not attributes of the object it defines.
COMMAND_OPTIONS = frozenset({"REPLACE", "NOREPLACE", "LIKE", "FORCE", "CMDSCOPE"})
#: Keywords written without a value.
FLAG_KEYWORDS = frozenset({"REPLACE", "NOREPLACE", "SHARE", "NOSHARE", "TRIGGER", "NOTRIGGER",
                           "HARDENBO", "NOHARDENBO", "FORCE", "PURGE", "NOPURGE", "ALL"})
#: Attributes that hold a list of values: to_mqsc writes their items one by one.
LIST_KEYWORDS = frozenset({"NAMES", "MSGEXIT", "MSGDATA", "SENDEXIT", "SENDDATA", "RCVEXIT",
                           "RCVDATA", "COMPHDR", "COMPMSG"})
#: Attributes that to_mqsc quotes even when they need no quotes (as dmpmqcfg does).
STRING_KEYWORDS = frozenset({
    "DESCR", "XMITQ", "RNAME", "RQMNAME", "TARGET", "CONNAME", "CLUSTER", "CLUSNL", "DEADQ",
    "DEFXMITQ", "REPOS", "REPOSNL", "INITQ", "PROCESS", "BOQNAME", "MCAUSER", "CUSTOM",
    "TOPICSTR", "LOCLADDR", "CERTLABL", "SSLCIPH", "SSLPEER", "TRIGDATA",
})

_DEFINABLE = frozenset((*QUEUE_KINDS, "CHANNEL", "QMGR", *OTHER_KINDS, *IGNORED_KINDS))
_NO_OBJECT_VERBS = frozenset({"END", "EXIT", "QUIT"})
_BLANKS = " \t"
_SEPARATORS = " \t,"
_WORD_END = " \t,();'"
_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_KEYWORD = re.compile(r"[A-Z][A-Z0-9]*")
_MQ_NAME = re.compile(r"[A-Za-z0-9._/%]+")
_NAME_LENGTH = {"CHANNEL": 20}
_HEADER = re.compile(r"\*\s*Queue manager name\s*:\s*(\S+)", re.IGNORECASE)
_SAFE_UNQUOTED = re.compile(r"[A-Z0-9._/%]+")
_RULE = "*" * 79


class MQSCError(ValueError):
    """MQSC text that cannot be read or applied: says where (file, line, column) and why."""

    def __init__(self, reason: str, *, source: str = "<mqsc>", line: int = 0,
                 column: int = 0) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        super().__init__(f"{source}, line {line}, column {column}: {reason}")

    @property
    def located(self) -> str:
        """The one-line form for users: 'FILE:LINE:COL: reason' ('FILE: reason' if unplaced)."""
        where = f"{self.source}:{self.line}:{self.column}" if self.line else self.source
        return f"{where}: {self.reason}"


@dataclass
class Command:
    """One MQSC command: verb and object type by full keyword, object name, attributes."""

    verb: str
    kind: str
    name: str | None
    attrs: dict[str, str] = field(default_factory=dict)
    line: int = 0
    column: int = 0
    source: str = "<mqsc>"
    #: Where each attribute's keyword was written: keyword -> (line, column).
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False,
                                                  repr=False)

    def error(self, reason: str, keyword: str | None = None) -> MQSCError:
        """An MQSCError located at this command (or at one of its attributes)."""
        line, column = self.positions.get(keyword or "", (self.line, self.column))
        return MQSCError(reason, source=self.source, line=line, column=column)


@dataclass
class _Header:
    """A '* Queue manager name: X' comment."""

    name: str
    line: int


@dataclass
class _Token:
    """A word, and the values in the parentheses after it (None when it has none)."""

    word: str
    at: int
    values: list[str] | None = None
    values_at: int = 0


class _Statement:
    """One command reassembled from its lines, each character with its (line, column)."""

    def __init__(self, text: str, where: list[tuple[int, int]], source: str) -> None:
        self.text = text
        self.where = where
        self.source = source
        self.i = 0

    def error(self, reason: str, index: int) -> MQSCError:
        if index < len(self.where):
            line, column = self.where[index]
        else:
            line, column = self.where[-1]
            column += 1
        return MQSCError(reason, source=self.source, line=line, column=column)

    def _skip(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in _SEPARATORS:
            self.i += 1

    def tokens(self) -> list[_Token]:
        """The words of the command, each with its parenthesised values."""
        text, out = self.text, []
        while True:
            self._skip()
            if self.i >= len(text):
                return out
            c = text[self.i]
            if c == ";":
                self.i += 1
                self._skip()
                if self.i < len(text):
                    raise self.error("text after ';' (each command starts on a new line)",
                                     self.i)
                return out
            if c == "(":
                raise self.error("a value in parentheses must follow a keyword", self.i)
            if c == ")":
                raise self.error("')' without a matching '('", self.i)
            if c == "'":
                raise self.error("a quoted string must be in parentheses after a keyword",
                                 self.i)
            start = self.i
            while self.i < len(text) and text[self.i] not in _WORD_END:
                self.i += 1
            token = _Token(text[start:self.i], start)
            self._skip()
            if self.i < len(text) and text[self.i] == "(":
                token.values_at = self.i
                token.values = self._values()
            out.append(token)

    def _values(self) -> list[str]:
        text, opening, values = self.text, self.i, []
        self.i += 1
        while True:
            self._skip()
            if self.i >= len(text):
                raise self.error("'(' is never closed", opening)
            c = text[self.i]
            if c == ")":
                self.i += 1
                return values
            if c == "'":
                values.append(self._quoted())
                if self.i < len(text) and text[self.i] not in _SEPARATORS + ")":
                    raise self.error("unexpected text right after a quoted string", self.i)
                continue
            start, depth = self.i, 0
            while self.i < len(text):
                c = text[self.i]
                if c in _SEPARATORS and depth == 0:
                    break
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c == "'":
                    raise self.error("a quote inside an unquoted value", self.i)
                self.i += 1
            values.append(text[start:self.i].translate(_UPPER))

    def _quoted(self) -> str:
        text, opening, chars = self.text, self.i, []
        self.i += 1
        while self.i < len(text):
            c = text[self.i]
            if c == "'":
                if text[self.i + 1:self.i + 2] == "'":
                    chars.append("'")
                    self.i += 2
                    continue
                self.i += 1
                return "".join(chars).rstrip(" ")
            chars.append(c)
            self.i += 1
        raise self.error("quoted string is never closed", opening)


def _scan(text: str, source: str) -> Iterator[_Statement | _Header]:
    """Reassemble commands from lines; pass queue manager header comments through."""
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    going_on = ""  # '+' or '-' while a command continues
    held: list[_Header] = []
    last = (1, 0)
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r").rstrip(_BLANKS)
        first = len(line) - len(line.lstrip(_BLANKS))
        if first == len(line):
            continue
        if line[first] == "*":
            match = _HEADER.fullmatch(line[first:])
            if match:
                header = _Header(match.group(1), number)
                if going_on:
                    held.append(header)
                else:
                    yield header
            continue
        start = 0 if going_on == "-" else first
        sign = line[-1] if line[-1] in "+-" else ""
        end = len(line) - len(sign)
        chars.extend(line[start:end])
        where.extend((number, column + 1) for column in range(start, end))
        last = (number, len(line))
        going_on = sign
        if sign:
            continue
        yield _Statement("".join(chars), where, source)
        yield from held
        chars, where, held = [], [], []
    if going_on:
        raise MQSCError("the text ends inside a command: its last line ends with a "
                        f"continuation sign '{going_on}'", source=source, line=last[0],
                        column=last[1])


def _name(statement: _Statement, token: _Token) -> str:
    assert token.values is not None
    if not any(token.values):
        raise statement.error(f"the name after {token.word} is empty", token.values_at)
    if len(token.values) != 1:
        raise statement.error(f"the name after {token.word} must be one value",
                              token.values_at)
    return token.values[0]


def _check_name(statement: _Statement, token: _Token, kind: str, name: str) -> None:
    limit = _NAME_LENGTH.get(kind, 48)
    if not _MQ_NAME.fullmatch(name) or len(name) > limit:
        raise statement.error(f"'{name}' is not a valid {kind} name (up to {limit} of "
                              "A-Z a-z 0-9 . / _ %)", token.values_at)


def _command(statement: _Statement) -> Command | None:
    tokens = statement.tokens()
    if not tokens:
        return None
    first, rest = tokens[0], tokens[1:]
    verb = VERBS.get(first.word.translate(_UPPER))
    if verb is None:
        raise statement.error(f"unknown MQSC command '{first.word}'", first.at)
    if first.values is not None:
        raise statement.error(f"{verb} takes no value in parentheses", first.values_at)
    kind, name, kind_token = "", None, None
    if rest and verb not in _NO_OBJECT_VERBS:
        kind_token, rest = rest[0], rest[1:]
        word = kind_token.word.translate(_UPPER)
        kind = OBJECT_SYNONYMS.get(word, word)
        if kind_token.values is not None:
            name = _name(statement, kind_token)
    changes = verb in ("DEFINE", "ALTER", "DELETE")
    after_kind = rest[0].at if rest else len(statement.text)
    if changes:
        if kind_token is None:
            raise statement.error(f"{verb} needs an object type (QLOCAL, CHANNEL, ...) and "
                                  "name", after_kind)
        if kind not in _DEFINABLE:
            raise statement.error(f"{verb} of unknown object type '{kind_token.word}'",
                                  kind_token.at)
        if kind == "QMGR":
            if verb != "ALTER":
                raise statement.error(f"{verb} QMGR is not possible: use ALTER QMGR",
                                      first.at)
            if name is not None:
                raise statement.error("ALTER QMGR takes no name", kind_token.values_at)
        elif name is None and kind not in IGNORED_KINDS and (kind != "SUB" or verb == "DEFINE"):
            raise statement.error(f"{verb} {kind} needs the object's name in parentheses "
                                  f"right after {kind}", after_kind)
    needs_channel = verb in ("START", "STOP") and kind == "CHANNEL"
    if needs_channel and name is None:
        raise statement.error(f"{verb} CHANNEL needs the channel's name in parentheses",
                              after_kind)
    if (changes or needs_channel) and name is not None and kind in (*QUEUE_KINDS, "CHANNEL"):
        assert kind_token is not None
        _check_name(statement, kind_token, kind, name)
    line, column = statement.where[first.at]
    command = Command(verb, kind, name, line=line, column=column, source=statement.source)
    for token in rest:
        word = token.word.translate(_UPPER)
        if not _KEYWORD.fullmatch(word):
            raise statement.error(f"'{token.word}' is not a keyword", token.at)
        keyword = ATTRIBUTE_SYNONYMS.get(word, word)
        if keyword in command.attrs:
            also = f" (as {keyword})" if keyword != word else ""
            raise statement.error(f"{word}{also} is given twice", token.at)
        command.attrs[keyword] = ",".join(token.values) if token.values is not None else ""
        command.positions[keyword] = statement.where[token.at]
    if "REPLACE" in command.attrs and "NOREPLACE" in command.attrs:
        raise command.error("REPLACE and NOREPLACE together", "NOREPLACE")
    if kind == "CHANNEL" and verb in ("DEFINE", "ALTER") and "CHLTYPE" in command.attrs:
        chltype = command.attrs["CHLTYPE"].translate(_UPPER).strip()
        if chltype not in CHANNEL_TYPES:
            raise command.error(f"CHLTYPE({command.attrs['CHLTYPE']}) is not a channel type "
                                f"({', '.join(CHANNEL_TYPES)})", "CHLTYPE")
        command.attrs["CHLTYPE"] = chltype
    return command


def _items(text: str, source: str) -> Iterator[Command | _Header]:
    for item in _scan(text, source):
        if isinstance(item, _Header):
            yield item
        elif (command := _command(item)) is not None:
            yield command


def parse_commands(text: str, source: str = "<mqsc>") -> list[Command]:
    """The commands in MQSC text, tokenised and checked for syntax but not applied."""
    return [item for item in _items(text, source) if isinstance(item, Command)]


def _object_attrs(command: Command) -> dict[str, str]:
    return {k: v for k, v in command.attrs.items() if k not in COMMAND_OPTIONS}


def _where(obj: MQObject) -> str:
    return f"{obj.source}, line {obj.line}" if obj.line else obj.source or "elsewhere"


class _Applier:
    """Applies commands to the queue managers of a network."""

    def __init__(self, network: Network, qmgr: str | None) -> None:
        self.network = network
        self.current = qmgr

    def header(self, header: _Header) -> None:
        self.current = header.name
        self.network.qmgr(header.name)

    def qmgr(self, command: Command) -> QueueManager:
        if self.current is None:
            raise command.error("no queue manager is named for this command: give qmgr= or a "
                                "'* Queue manager name: NAME' comment before it")
        return self.network.qmgr(self.current)

    def apply(self, command: Command) -> None:
        verb, kind = command.verb, command.kind
        if verb in ("START", "STOP") and kind == "CHANNEL":
            self.channel_status(command)
        elif verb in ("DEFINE", "ALTER", "DELETE") and kind not in IGNORED_KINDS:
            if kind == "QMGR":
                self.qmgr(command).attrs.update(_object_attrs(command))
            elif command.name is not None:
                self.change(command)

    def channel_status(self, command: Command) -> None:
        qm = self.qmgr(command)
        assert command.name is not None
        if command.verb == "START":
            qm.stopped.discard(command.name)
        elif command.attrs.get("STATUS", "STOPPED") != "INACTIVE":
            qm.stopped.add(command.name)

    def change(self, command: Command) -> None:
        qm = self.qmgr(command)
        name, kind = command.name, command.kind
        assert name is not None
        store: dict = (qm.queues if kind in QUEUE_KINDS
                       else qm.channels if kind == "CHANNEL" else qm.others)
        key = name if store is not qm.others else (kind, name)
        existing: MQObject | None = store.get(key)
        if existing is None and command.verb != "DEFINE":
            raise command.error(f"{kind} {name} is not defined on {qm.name} (MQ: AMQ8147E)")
        if existing is not None and existing.kind != kind:
            raise command.error(f"{name} on {qm.name} is a {existing.kind} (defined at "
                                f"{_where(existing)}): the queue types share one name space "
                                f"and {command.verb} {kind} cannot change the type; DELETE "
                                "it first")
        if command.verb == "DELETE":
            del store[key]
            if kind == "CHANNEL":
                qm.stopped.discard(name)
            return
        attrs = _object_attrs(command)
        if existing is not None and command.verb == "ALTER":
            self.check_chltype(command, existing, attrs)
            existing.attrs.update(attrs)
            return
        if existing is not None and "REPLACE" not in command.attrs:
            raise command.error(f"{kind} {name} already exists on {qm.name} (defined at "
                                f"{_where(existing)}); MQ refuses to define it again without "
                                "REPLACE (AMQ8150E)")
        if "LIKE" in command.attrs:
            attrs = {**self.like(command, store, qm), **attrs}
        if kind == "CHANNEL":
            if not attrs.get("CHLTYPE"):
                raise command.error(f"DEFINE CHANNEL({name}) needs CHLTYPE")
            if existing is not None:
                self.check_chltype(command, existing, attrs)
        store[key] = MQObject(kind, name, attrs, command.source, command.line)

    @staticmethod
    def check_chltype(command: Command, existing: MQObject, attrs: dict[str, str]) -> None:
        old, new = existing.get("CHLTYPE"), attrs.get("CHLTYPE", existing.get("CHLTYPE"))
        if existing.kind == "CHANNEL" and old and new != old:
            raise command.error(f"channel {existing.name} is a {old} channel (defined at "
                                f"{_where(existing)}); its CHLTYPE cannot become {new}: "
                                "DELETE it first", "CHLTYPE")

    @staticmethod
    def like(command: Command, store: dict, qm: QueueManager) -> dict[str, str]:
        model_name, kind = command.attrs["LIKE"], command.kind
        model = store.get(model_name if store is not qm.others else (kind, model_name))
        if model is not None and model.kind == kind:
            return dict(model.attrs)
        if model is None and model_name.startswith("SYSTEM."):
            return {}
        raise command.error(f"LIKE({model_name}): no {kind} of that name is defined on "
                            f"{qm.name}", "LIKE")


def parse_mqsc(text: str, *, source: str = "<mqsc>", qmgr: str | None = None,
               network: Network | None = None) -> Network:
    """Apply MQSC text to `network` (a new one if None); `qmgr` until a header names one."""
    items = list(_items(text, source))
    network = network if network is not None else Network()
    applier = _Applier(network, qmgr)
    for item in items:
        if isinstance(item, _Header):
            applier.header(item)
        else:
            applier.apply(item)
    return network


def decode_mqsc(data: bytes, source: str = "<mqsc>") -> str:
    """MQSC bytes as text (UTF-8); MQSCError at the line and column of a byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        raise MQSCError(f"byte 0x{data[e.start]:02X} is not UTF-8 (MQSC files are read as "
                        "UTF-8: convert the file, e.g. with iconv)", source=source, line=line,
                        column=column) from None


#: The largest MQSC file read (dmpmqcfg of a queue manager with 100,000 objects is ~100 MB).
MAX_MQSC_BYTES = 256 * 1024 * 1024


def _read_bounded(path: Path, limit: int) -> bytes:
    """The file's bytes (also from a FIFO or device); MQSCError past `limit` bytes."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise MQSCError(f"larger than {limit // (1024 * 1024)} MiB: not an MQSC file (or "
                        "split it per queue manager)", source=str(path))
    return data


def read_mqsc(paths: Iterable[str | Path], *, limit: int = MAX_MQSC_BYTES) -> Network:
    """One network from MQSC files (UTF-8); a file's default queue manager is its stem."""
    network = Network()
    for path in paths:
        path = Path(path)
        parse_mqsc(decode_mqsc(_read_bounded(path, limit), str(path)), source=str(path),
                   qmgr=path.stem.upper(), network=network)
    return network


def _quote(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ValueError(f"{text!r} cannot be written in MQSC: it contains a line break")
    return "'" + text.replace("'", "''") + "'"


def _value(keyword: str, value: str) -> str:
    if keyword not in STRING_KEYWORDS and _SAFE_UNQUOTED.fullmatch(value):
        return value
    return _quote(value or " ")


def _attribute(keyword: str, value: str) -> str:
    if not value and keyword in FLAG_KEYWORDS:
        return keyword
    if keyword in LIST_KEYWORDS:
        return f"{keyword}({','.join(_value(keyword, item) for item in value.split(','))})"
    return f"{keyword}({_value(keyword, value)})"


def _write(out: list[str], head: str, attrs: dict[str, str], *, replace: bool) -> None:
    parts = [_attribute(k, v) for k, v in attrs.items() if k not in COMMAND_OPTIONS]
    if replace:
        parts.append("REPLACE")
    if not parts:
        out.append(head)
        return
    out.append(f"{head} +")
    out.extend(f"   {part} +" for part in parts[:-1])
    out.append(f"   {parts[-1]}")


def _channel_order(attrs: dict[str, str]) -> dict[str, str]:
    """CHLTYPE first: MQ wants it right after the channel name."""
    return {**({"CHLTYPE": attrs["CHLTYPE"]} if "CHLTYPE" in attrs else {}), **attrs}


def to_mqsc(network: Network) -> str:
    """The network as MQSC in dmpmqcfg's layout: a header per queue manager, DEFINE ... REPLACE."""
    out: list[str] = []
    for qm in network.qmgrs.values():
        out += [_RULE, "* Written by traceroute.mqsc", f"* Queue manager name: {qm.name}",
                _RULE]
        if qm.attrs:
            _write(out, "ALTER QMGR", qm.attrs, replace=False)
        for q in qm.queues.values():
            _write(out, f"DEFINE {q.kind}({_quote(q.name)})", q.attrs, replace=True)
        for ch in qm.channels.values():
            _write(out, f"DEFINE CHANNEL({_quote(ch.name)})", _channel_order(ch.attrs),
                   replace=True)
        for (kind, name), obj in qm.others.items():
            _write(out, f"DEFINE {kind}({_quote(name)})", obj.attrs, replace=True)
        out.extend(f"STOP CHANNEL({_quote(name)})" for name in sorted(qm.stopped))
        out.append("")
    return "\n".join(out)
