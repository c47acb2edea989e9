"""Message selectors of subscriptions (SELECTOR, MQSD SelectionString): the SQL-92 subset
IBM MQ's "Message selector syntax" defines, evaluated on a publication's MQMD.

Literals: numbers, 'strings' ('' is a quote), TRUE, FALSE. Identifiers: the JMS header
fields MQ maps to the MQMD (JMSPriority, JMSDeliveryMode 'PERSISTENT'/'NON_PERSISTENT',
JMSCorrelationID and JMSMessageID 'ID:<hex>', JMSType nothing here) and Root.MQMD.<Field>
for the MQMD's fields (Priority, Persistence, Format, UserIdentifier, PutApplName, ...);
an identifier the message does not carry (a user property: the simulator's messages have
none) is NULL. Operators: = <> < > <= >= (strings compare only with = and <>), + - * /,
[NOT] BETWEEN a AND b, [NOT] IN ('a', ...), [NOT] LIKE 'pattern' [ESCAPE 'c'] (% any run, _
one character), IS [NOT] NULL, NOT, AND, OR, parentheses. Keywords in any case; NULL makes
a comparison unknown, and an unknown selector selects nothing (SQL's three-valued logic).
`compile_selector` raises SelectorError for text it cannot read (MQ:
MQRC_SELECTION_STRING_ERROR).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields

from pcf import mqc
from pcf.mqmd import MQMD

#: A compiled selector: the message's MQMD -> True (selected), False, or None (unknown).
Selector = Callable[[MQMD], "bool | None"]
_Value = Callable[[MQMD], object]

_TOKEN = re.compile(r"""\s*(?:
    (?P<number>\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?)
  | (?P<string>'(?:[^']|'')*')
  | (?P<op><>|<=|>=|[=<>+\-*/(),])
  | (?P<ident>[A-Za-z_$][A-Za-z0-9_$.]*)
)""", re.VERBOSE)
_KEYWORDS = {"AND", "OR", "NOT", "BETWEEN", "IN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE",
             "FALSE"}
_CAMEL = {"".join(w.capitalize() for w in f.name.split("_")): f.name for f in fields(MQMD)}
_CAMEL.update(CodedCharSetId="coded_char_set_id", MsgId="msg_id", CorrelId="correl_id",
              ReplyToQ="reply_to_q", ReplyToQMgr="reply_to_q_mgr", MsgSeqNumber="msg_seq_number",
              PutApplName="put_appl_name", PutApplType="put_appl_type",
              ApplIdentityData="appl_identity_data", ApplOriginData="appl_origin_data",
              UserIdentifier="user_identifier", AccountingToken="accounting_token",
              GroupId="group_id", MsgFlags="msg_flags", OriginalLength="original_length",
              BackoutCount="backout_count", MsgType="msg_type", PutDate="put_date",
              PutTime="put_time")


class SelectorError(ValueError):
    """A selection string that is not valid (MQRC_SELECTION_STRING_ERROR)."""

    reason = mqc.MQRC_SELECTION_STRING_ERROR


def _text(value: object) -> object:
    if isinstance(value, str):
        return value.rstrip(" \0")
    if isinstance(value, bytes):
        return "ID:" + value.hex()
    return value


def _identifier(name: str) -> _Value:
    if name == "JMSPriority":
        return lambda md: md.priority
    if name == "JMSDeliveryMode":
        return lambda md: "PERSISTENT" if md.persistence == mqc.MQPER_PERSISTENT \
            else "NON_PERSISTENT"
    if name in ("JMSCorrelationID", "JMSMessageID"):
        attr = "correl_id" if name == "JMSCorrelationID" else "msg_id"
        return lambda md: "ID:" + getattr(md, attr).hex()
    if name.startswith("Root.MQMD."):
        attr = _CAMEL.get(name[len("Root.MQMD."):])
        if attr is not None:
            return lambda md: _text(getattr(md, attr))
    return lambda md: None  # a property the message does not have


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise SelectorError(f"selector: cannot read {text[pos:pos + 20]!r} "
                                    f"(at character {pos + 1})")
            kind = m.lastgroup or ""
            value = m.group(kind)
            if kind == "ident" and value.upper() in _KEYWORDS:
                kind, value = "kw", value.upper()
            self.tokens.append((kind, value, m.start(kind)))
            pos = m.end()
        self.i = 0

    def peek(self, *values: str) -> bool:
        if self.i >= len(self.tokens):
            return False
        kind, value, _ = self.tokens[self.i]
        return kind in ("kw", "op") and value in values

    def take(self, *values: str) -> str:
        if not self.peek(*values):
            raise self.error(f"expected {' or '.join(values)}")
        self.i += 1
        return self.tokens[self.i - 1][1]

    def error(self, what: str) -> SelectorError:
        if self.i < len(self.tokens):
            return SelectorError(f"selector: {what} at character {self.tokens[self.i][2] + 1}")
        return SelectorError(f"selector: {what} at the end")

    # grammar ---------------------------------------------------------------------------
    def parse(self) -> Selector:
        if not self.tokens:
            raise SelectorError("selector: empty")
        node = self.disjunction()
        if self.i != len(self.tokens):
            raise self.error("unexpected text")
        return node  # type: ignore[return-value]

    def disjunction(self) -> _Value:
        left = self.conjunction()
        while self.peek("OR"):
            self.take("OR")
            right = self.conjunction()
            left = _or(left, right)
        return left

    def conjunction(self) -> _Value:
        left = self.negation()
        while self.peek("AND"):
            self.take("AND")
            right = self.negation()
            left = _and(left, right)
        return left

    def negation(self) -> _Value:
        if self.peek("NOT"):
            self.take("NOT")
            inner = self.negation()
            return lambda md: None if (v := inner(md)) is None else not v
        return self.predicate()

    def predicate(self) -> _Value:
        left = self.sum()
        negate = False
        if self.peek("NOT") and self.i + 1 < len(self.tokens) and \
                self.tokens[self.i + 1][1] in ("BETWEEN", "IN", "LIKE"):
            self.take("NOT")
            negate = True
        if self.peek("=", "<>", "<", ">", "<=", ">="):
            op = self.take("=", "<>", "<", ">", "<=", ">=")
            return _compare(op, left, self.sum())
        if self.peek("BETWEEN"):
            self.take("BETWEEN")
            low = self.sum()
            self.take("AND")
            high = self.sum()
            return _maybe_not(negate, _and(_compare(">=", left, low),
                                           _compare("<=", left, high)))
        if self.peek("IN"):
            self.take("IN")
            self.take("(")
            items = [self.literal_string()]
            while self.peek(","):
                self.take(",")
                items.append(self.literal_string())
            self.take(")")
            return _maybe_not(negate, lambda md: None if (v := left(md)) is None
                              else v in items)
        if self.peek("LIKE"):
            self.take("LIKE")
            pattern = self.literal_string()
            escape = ""
            if self.peek("ESCAPE"):
                self.take("ESCAPE")
                escape = self.literal_string()
                if len(escape) != 1:
                    raise self.error("ESCAPE takes one character")
            regex = _like(pattern, escape)
            return _maybe_not(negate, lambda md: None if not isinstance(v := left(md), str)
                              else regex.fullmatch(v) is not None)
        if negate:
            raise self.error("expected BETWEEN, IN or LIKE after NOT")
        if self.peek("IS"):
            self.take("IS")
            is_not = self.peek("NOT")
            if is_not:
                self.take("NOT")
            self.take("NULL")
            return (lambda md: left(md) is not None) if is_not else \
                (lambda md: left(md) is None)
        return left

    def literal_string(self) -> str:
        if self.i < len(self.tokens) and self.tokens[self.i][0] == "string":
            self.i += 1
            return self.tokens[self.i - 1][1][1:-1].replace("''", "'")
        raise self.error("expected a 'string'")

    def sum(self) -> _Value:
        left = self.product()
        while self.peek("+", "-"):
            left = _arith(self.take("+", "-"), left, self.product())
        return left

    def product(self) -> _Value:
        left = self.unary()
        while self.peek("*", "/"):
            left = _arith(self.take("*", "/"), left, self.unary())
        return left

    def unary(self) -> _Value:
        if self.peek("+", "-"):
            sign = self.take("+", "-")
            inner = self.unary()
            if sign == "+":
                return inner
            return lambda md: -v if isinstance(v := inner(md), int | float) \
                and not isinstance(v, bool) else None
        return self.primary()

    def primary(self) -> _Value:
        if self.i >= len(self.tokens):
            raise self.error("expected a value")
        kind, value, _ = self.tokens[self.i]
        if kind == "op" and value == "(":
            self.take("(")
            inner = self.disjunction()
            self.take(")")
            return inner
        self.i += 1
        if kind == "number":
            number: float | int = float(value) if any(c in value for c in ".eE") \
                else int(value)
            return lambda md: number
        if kind == "string":
            text = value[1:-1].replace("''", "'")
            return lambda md: text
        if kind == "kw" and value in ("TRUE", "FALSE"):
            truth = value == "TRUE"
            return lambda md: truth
        if kind == "ident":
            return _identifier(value)
        self.i -= 1
        raise self.error("expected a value")


def _or(a: _Value, b: _Value) -> _Value:
    def run(md: MQMD) -> bool | None:
        x, y = a(md), b(md)
        if x is True or y is True:
            return True
        return None if x is None or y is None else False
    return run


def _and(a: _Value, b: _Value) -> _Value:
    def run(md: MQMD) -> bool | None:
        x, y = a(md), b(md)
        if x is False or y is False:
            return False
        return None if x is None or y is None else bool(x and y)
    return run


def _maybe_not(negate: bool, inner: _Value) -> _Value:
    if not negate:
        return inner
    return lambda md: None if (v := inner(md)) is None else not v


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _compare(op: str, a: _Value, b: _Value) -> _Value:
    def run(md: MQMD) -> bool | None:
        x, y = a(md), b(md)
        if x is None or y is None:
            return None
        if _number(x) and _number(y):
            return {"=": x == y, "<>": x != y, "<": x < y, ">": x > y,  # type: ignore[operator]
                    "<=": x <= y, ">=": x >= y}[op]  # type: ignore[operator]
        if type(x) is type(y) and op in ("=", "<>"):
            return (x == y) == (op == "=")
        return None  # strings and booleans are only equal or not; mixed types: unknown
    return run


def _arith(op: str, a: _Value, b: _Value) -> _Value:
    def run(md: MQMD) -> object:
        x, y = a(md), b(md)
        if not (_number(x) and _number(y)):
            return None
        if op == "/":
            return None if y == 0 else x / y  # type: ignore[operator]
        return {"+": x + y, "-": x - y, "*": x * y}[op]  # type: ignore[operator]
    return run


def _like(pattern: str, escape: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape and c == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def compile_selector(text: str) -> Selector:
    """The selector of a selection string (SelectorError if it cannot be read)."""
    return _Parser(text).parse()


def selects(text: str, md: MQMD) -> bool:
    """True when the selection string selects the message ('' selects everything)."""
    if not text.strip():
        return True
    return compile_selector(text)(md) is True
