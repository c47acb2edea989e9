"""MQSC text into commands: lines, continuations, words, values, synonyms, syntax errors.

The rules are those of the package's face (`traceroute.sim.mqsc`): what a line, a word and
a value are, and which command and object keywords MQSC has.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from dataclasses import dataclass, field

from traceroute.events.objects import other_words
from traceroute.sim.crtmqm import FLAGS, KNOWN_KEYWORDS
from traceroute.sim.network import QUEUE_KINDS
from traceroute.status.attributes import number_problem, numbers, word_problem, words

_NEGATIVE_FLAGS = {negative: flag for flag, negative in FLAGS.items()}

#: runmqsc's messages for a command it cannot read (AMQ8xxx: Administration).
SYNTAX_ERROR = "AMQ8405I: Syntax error detected at or near end of command segment below:-"
UNKNOWN_COMMAND = "AMQ8426I: Valid MQSC commands are:"

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
FLAG_KEYWORDS = frozenset({"REPLACE", "NOREPLACE", "FORCE", "PURGE", "NOPURGE", "ALL"})
#: Attributes that hold a list of values: to_mqsc writes their items one by one.
LIST_KEYWORDS = frozenset({"NAMES", "MSGEXIT", "MSGDATA", "SENDEXIT", "SENDDATA", "RCVEXIT",
                           "RCVDATA", "COMPHDR", "COMPMSG", "SUITEB", "PROTOCOL"})
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
_NOT_UNQUOTED = frozenset("{}$<>\"!&|#@~^[]\\`")
_WORD_END = " \t,();'"
_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_KEYWORD = re.compile(r"[A-Z][A-Z0-9]*")
_MQ_NAME = re.compile(r"[A-Za-z0-9._/%]+")
_NAME_LENGTH = {"CHANNEL": 20}
_HEADER = re.compile(r"\*\s*Queue manager name\s*:\s*(\S+)", re.IGNORECASE)


class MQSCError(ValueError):
    """MQSC text that cannot be read or applied: says where (file, line, column) and why."""

    def __init__(self, reason: str, *, source: str = "<mqsc>", line: int = 0,
                 column: int = 0, amq: str = SYNTAX_ERROR) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        #: MQ's message for it as runmqsc prints it ('AMQ8405I: Syntax error ...').
        self.amq = amq
        super().__init__(f"{source}, line {line}, column {column}: {reason}")

    @property
    def syntax(self) -> bool:
        """True for an error runmqsc counts as a syntax error (not a command that failed)."""
        return self.amq in (SYNTAX_ERROR, UNKNOWN_COMMAND)

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
    #: The last line of the command as typed (after its continuation lines; 0: unknown).
    last_line: int = field(default=0, compare=False, repr=False)

    def error(self, reason: str, keyword: str | None = None,
              amq: str = SYNTAX_ERROR) -> MQSCError:
        """An MQSCError located at this command (or at one of its attributes)."""
        line, column = self.positions.get(keyword or "", (self.line, self.column))
        return MQSCError(reason, source=self.source, line=line, column=column, amq=amq)

    @property
    def text(self) -> str:
        """The command as one line of MQSC, rebuilt from what was read (quotes and case as
        stored; runmqsc's echo of what was typed is the source lines `line`..`last_line`)."""
        head = " ".join(p for p in (self.verb, self.kind) if p)
        if self.name is not None:
            head += f"({self.name})"
        parts = [head] + [k if v == "" else f"{k}({v})" for k, v in self.attrs.items()]
        return " ".join(parts)


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
                elif c in _NOT_UNQUOTED:
                    if text.startswith(("{{", "${", "$(", "<%"), self.i):
                        raise self.error("an unfilled template placeholder (the template "
                                         "was not filled in before the file was used)", self.i)
                    raise self.error(f"'{c}' cannot be in an unquoted value (quote the value)",
                                     self.i)
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
        yield MQSCError("the text ends inside a command: its last line ends with a "
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
        error = statement.error(f"unknown MQSC command '{first.word}'", first.at)
        error.amq = UNKNOWN_COMMAND
        raise error
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
    command = Command(verb, kind, name, line=line, column=column, source=statement.source,
                      last_line=statement.where[-1][0])
    for token in rest:
        word = token.word.translate(_UPPER)
        if not _KEYWORD.fullmatch(word):
            raise statement.error(f"'{token.word}' is not a keyword", token.at)
        keyword = ATTRIBUTE_SYNONYMS.get(word, word)
        value = ",".join(token.values) if token.values is not None else ""
        if keyword in _NEGATIVE_FLAGS and token.values is None:
            keyword, value = _NEGATIVE_FLAGS[keyword], "NO"
        elif keyword in FLAGS and token.values is None:
            value = "YES"
        if keyword in command.attrs:
            also = f" (as {keyword})" if keyword != word else ""
            raise statement.error(f"{word}{also} is given twice", token.at)
        _check_keyword(statement, command, keyword, word, token.at)
        value = _checked_value(statement, command, keyword, value, token)
        command.attrs[keyword] = value
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


#: Keywords DEFINE/ALTER take for every object type besides its attributes (z/OS's queue
#: sharing group and storage keywords are read too: dmpmqcfg on z/OS writes them).
_EVERY_KIND = frozenset({"CMDSCOPE", "QSGDISP", "LIKE", "REPLACE", "NOREPLACE", "FORCE"})
_MORE_KEYWORDS = {
    "QLOCAL": {"CFSTRUCT", "STGCLASS", "INDXTYPE", "NOPURGE", "PURGE", "OTELTRAC",
               "OTELPCTL"},
    "QMODEL": {"CFSTRUCT", "STGCLASS", "INDXTYPE", "OTELTRAC", "OTELPCTL"},
    "QREMOTE": {"OTELTRAC", "OTELPCTL"},
    "CHANNEL": {"DEFCDISP", "TPROOT", "SSLKEYP", "SSLKEYF", "QMNAME", "BACKLOG", "JAASCFG",
                "PROTOCOL", "USECLNTID", "PORT", "MAXINST", "MAXINSTC", "AMQPKA", "TMPMODEL",
                "TMPQPRFX", "USECLTID", "CLNTWGHT", "AFFINITY", "DEFRECON", "SHARECNV"},
    "LISTENER": {"ADAPTER", "COMMANDS", "LOCLNAME", "NTBNAMES", "SESSIONS", "SOCKET",
                 "TPNAME"},
    "NAMELIST": {"NLTYPE"},
    "SUB": {"SUBID", "DESTCLAS", "SUBNAME"},
    "TOPIC": {"CLUSTER"},
}


def _check_keyword(statement: _Statement, command: Command, keyword: str, word: str,
                   at: int) -> None:
    """A keyword MQ does not have for this DEFINE/ALTER is this command's syntax error."""
    if command.verb not in ("DEFINE", "ALTER"):
        return
    known = KNOWN_KEYWORDS.get(command.kind)
    if known is None:
        return  # z/OS storage objects and the like: read as written
    if keyword in known or keyword in _EVERY_KIND \
            or keyword in _MORE_KEYWORDS.get(command.kind, ()):
        return
    raise statement.error(f"{word} is not a keyword of {command.verb} {command.kind}", at)


def _checked_value(statement: _Statement, command: Command, keyword: str, value: str,
                   token: _Token) -> str:
    """The value of a DEFINE/ALTER attribute as MQ keeps it (a word in upper case); a value
    MQ does not take is this command's error: for a numeric attribute not a number or
    outside the range IBM documents (`traceroute.status.attributes.numbers`), for a word
    attribute a word it does not have (`words`)."""
    if command.verb not in ("DEFINE", "ALTER"):
        return value
    at = token.values_at if token.values is not None else token.at
    a = numbers(command.kind).get(keyword)
    if a is not None:
        problem = number_problem(a, value)
        if problem is not None:
            raise statement.error(problem, at)
        return value
    a = (words(command.kind) or other_words(command.kind)).get(keyword)
    if a is None:
        return value
    problem, value = word_problem(a, value)
    if problem is not None:
        raise statement.error(problem, at)
    return value


def _items(text: str, source: str) -> Iterator[Command | _Header | MQSCError]:
    """Headers, commands, and each command that cannot be read as its MQSCError."""
    for item in _scan(text, source):
        if isinstance(item, _Header | MQSCError):
            yield item
            continue
        try:
            command = _command(item)
        except MQSCError as e:
            yield e
            continue
        if command is not None:
            yield command


def parse_commands(text: str, source: str = "<mqsc>") -> list[Command]:
    """The commands in MQSC text, tokenised and checked for syntax but not applied;
    MQSCError at the first command that cannot be read."""
    out = []
    for item in _items(text, source):
        if isinstance(item, MQSCError):
            raise item
        if isinstance(item, Command):
            out.append(item)
    return out

