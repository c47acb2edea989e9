"""The trace-route message dspmqrte puts: its options, its MQMD and PCF data, and back.

Spec: ../shared/spec/trace-route.md §2-§3 (message layout, TraceRoute group) and
ordering-and-display.md §7.1 (every dspmqrte option, its default and the field it sets).

    >>> options = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q", ac=True)
    >>> md, data = build_trace_message(options, msg_id=bytes(24))

Readings chosen where the spec leaves a question open (see TraceOptions):

* ``-xp`` default: not set. The seed says both "yes is the default" and "if not specified,
  MQRO_PASS_DISCARD_AND_EXPIRY is not specified"; the second agrees with the documented
  default Report 0x08000004 (-ro row and worked example 1), so ``pass_expiry=False``.
* ``-ar`` without ``-ac``: a reply can only carry accumulated information and the one
  Accumulate value that asks for a reply (AND_REPLY) also accumulates, so ``-ar`` alone
  gives AND_REPLY and MsgType REQUEST, exactly as ``-ac -ar`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from pcf import mqc
from pcf.encoder import encode
from pcf.model import EmbeddedHeader, Group, Header, Integer, Message, Parameter
from pcf.mqmd import MQMD
from traceroute.records.model import TRACE_ROUTE_MEMBERS

#: What dspmqrte opens when no -rq is given (a temporary dynamic queue is made from it).
DEFAULT_MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"
#: -xs when omitted, in seconds.
DEFAULT_EXPIRY_SECONDS = 60
#: -ro when neither a report option nor "none" is given: activity reports, discard.
DEFAULT_REPORT = mqc.MQRO_ACTIVITY | mqc.MQRO_DISCARD_MSG

#: -ro keywords (ordering-and-display.md §7.1). "none" stands alone and means MQRO_NONE.
REPORT_KEYWORDS: dict[str, int] = {
    "activity": mqc.MQRO_ACTIVITY,
    "coa": mqc.MQRO_COA_WITH_FULL_DATA,
    "cod": mqc.MQRO_COD_WITH_FULL_DATA,
    "exception": mqc.MQRO_EXCEPTION_WITH_FULL_DATA,
    "expiration": mqc.MQRO_EXPIRATION_WITH_FULL_DATA,
    "discard": mqc.MQRO_DISCARD_MSG,
}
#: -l keywords.
PERSISTENCE_KEYWORDS: dict[str, int] = {
    "yes": mqc.MQPER_PERSISTENT,
    "no": mqc.MQPER_NOT_PERSISTENT,
    "q": mqc.MQPER_PERSISTENCE_AS_Q_DEF,
}
#: -t keywords.
DETAIL_KEYWORDS: dict[str, int] = {
    "low": mqc.MQROUTE_DETAIL_LOW,
    "medium": mqc.MQROUTE_DETAIL_MEDIUM,
    "high": mqc.MQROUTE_DETAIL_HIGH,
}
#: -d keywords.
DELIVER_KEYWORDS: dict[str, int] = {"yes": mqc.MQROUTE_DELIVER_YES,
                                    "no": mqc.MQROUTE_DELIVER_NO}
#: -f keywords.
FORWARD_KEYWORDS: dict[str, int] = {"all": mqc.MQROUTE_FORWARD_ALL,
                                    "supported": mqc.MQROUTE_FORWARD_IF_SUPPORTED}
_YES_NO = {"yes": True, "no": False}

#: Report options that make something send a message to the ReplyToQ.
REPORT_GENERATING = (mqc.MQRO_ACTIVITY | mqc.MQRO_COA | mqc.MQRO_COD | mqc.MQRO_EXCEPTION
                     | mqc.MQRO_EXPIRATION | mqc.MQRO_PAN | mqc.MQRO_NAN)

_NAME_LENGTH = 48  # MQ_Q_NAME_LENGTH and MQ_Q_MGR_NAME_LENGTH
_I32_MAX = 2**31 - 1


def parse_report_options(text: str) -> int:
    """The MQRO_* value of a -ro argument: "none" or comma-separated keywords."""
    words = [w.strip().lower() for w in text.split(",")]
    if words == ["none"]:
        return mqc.MQRO_NONE
    report = mqc.MQRO_NONE
    for word in words:
        if word not in REPORT_KEYWORDS:
            allowed = ", ".join(REPORT_KEYWORDS)
            hint = " ('none' must stand alone)" if word == "none" else ""
            raise ValueError(f"-ro {text!r}: {word!r} is not one of none, {allowed}{hint}")
        report |= REPORT_KEYWORDS[word]
    return report


def _keyword(option: str, value: object, table: dict[str, object]) -> object:
    key = str(value).strip().lower()
    if key not in table:
        raise ValueError(f"-{option} {value!r}: expected one of {', '.join(table)}")
    return table[key]


@dataclass(frozen=True, slots=True)
class TraceOptions:
    """The dspmqrte generation options that shape a trace-route message, with its defaults.

    Values are the MQ constants the message carries; `from_dspmqrte` maps the keywords.
    A blank `reply_to_q` is dspmqrte's default (a temporary dynamic queue made from
    DEFAULT_MODEL_QUEUE): put its real name in before building the message. A blank
    `reply_to_q_mgr` / `target_q_mgr` means the connected queue manager.
    """

    persistence: int = mqc.MQPER_NOT_PERSISTENT  # -l
    priority: int = mqc.MQPRI_PRIORITY_AS_Q_DEF  # -p
    expiry: int = DEFAULT_EXPIRY_SECONDS  # -xs, in seconds (the MQMD holds tenths)
    report: int = DEFAULT_REPORT  # -ro; -xp adds MQRO_PASS_DISCARD_AND_EXPIRY
    pass_expiry: bool = False  # -xp (default: see the module docstring)
    accumulate: bool = False  # -ac
    reply: bool = False  # -ar (implies accumulation: see the module docstring)
    deliver: int = mqc.MQROUTE_DELIVER_NO  # -d
    forward: int = mqc.MQROUTE_FORWARD_IF_SUPPORTED  # -f
    max_activities: int = mqc.MQROUTE_UNLIMITED_ACTIVITIES  # -s
    detail: int = mqc.MQROUTE_DETAIL_MEDIUM  # -t
    reply_to_q: str = ""  # -rq
    reply_to_q_mgr: str = ""  # -rqm
    target_q: str = ""  # -q
    target_topic: str = ""  # -ts (topic mode: publish instead of put)
    target_q_mgr: str = ""  # -qm
    bind_not_fixed: bool = False  # -o (open with MQOO_BIND_NOT_FIXED)

    def __post_init__(self) -> None:
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise ValueError(message)

        check(self.persistence in PERSISTENCE_KEYWORDS.values(),
              f"persistence {self.persistence} is not an MQPER_* value (0, 1, 2)")
        check(-1 <= self.priority <= _I32_MAX, f"priority {self.priority} is not >= 0 or -1")
        check(1 <= self.expiry <= _I32_MAX // 10,
              f"expiry {self.expiry} s is not a positive number of seconds that fits the MQMD")
        check(0 <= self.report <= _I32_MAX, f"report {self.report:#x} is not an MQRO_* mask")
        check(not self.report & mqc.MQRO_PASS_DISCARD_AND_EXPIRY,
              "MQRO_PASS_DISCARD_AND_EXPIRY comes from pass_expiry (-xp), not report")
        check(self.deliver in DELIVER_KEYWORDS.values(),
              f"deliver {self.deliver:#x} is not MQROUTE_DELIVER_YES or _NO")
        check(self.forward in FORWARD_KEYWORDS.values(),
              f"forward {self.forward:#x} is not MQROUTE_FORWARD_ALL or _IF_SUPPORTED")
        check(0 <= self.max_activities <= _I32_MAX,
              f"max_activities {self.max_activities} is not >= 1 or 0 (unlimited)")
        check(self.detail in DETAIL_KEYWORDS.values(),
              f"detail {self.detail} is not MQROUTE_DETAIL_LOW, _MEDIUM or _HIGH")
        for name in ("reply_to_q", "reply_to_q_mgr", "target_q", "target_q_mgr"):
            value = getattr(self, name)
            check(len(value) <= _NAME_LENGTH, f"{name} {value!r} is longer than 48 characters")
        check(not (self.target_q and self.target_topic),
              "give a target queue (-q) or a topic string (-ts), not both")
        # ordering-and-display.md §7.1, -l row: with yes, -rq is mandatory.
        check(self.persistence != mqc.MQPER_PERSISTENT or bool(self.reply_to_q.strip()),
              "a persistent trace-route message needs a named reply-to queue (-rq), not a "
              "temporary dynamic one")

    @classmethod
    def from_dspmqrte(cls, **options: str | int | bool | None) -> TraceOptions:
        """Options as typed for dspmqrte, keyed by option letter: l="yes", ro="coa", ac=True."""
        values: dict[str, object] = {}
        for option, value in options.items():
            if value is None:
                continue
            if option not in _OPTION_FIELDS:
                raise TypeError(f"-{option} is not a dspmqrte option that shapes the message")
            field, convert = _OPTION_FIELDS[option]
            values[field] = convert(option, value)
        return cls(**values)

    @property
    def accumulation(self) -> int:
        """The TraceRoute Accumulate value: AND_REPLY (-ar), IN_MSG (-ac) or NONE."""
        if self.reply:
            return mqc.MQROUTE_ACCUMULATE_AND_REPLY
        if self.accumulate:
            return mqc.MQROUTE_ACCUMULATE_IN_MSG
        return mqc.MQROUTE_ACCUMULATE_NONE

    @property
    def msg_type(self) -> int:
        """MQMD.MsgType: REQUEST when a trace-route reply is asked for, else DATAGRAM."""
        return mqc.MQMT_REQUEST if self.reply else mqc.MQMT_DATAGRAM

    @property
    def md_report(self) -> int:
        """MQMD.Report: the -ro options plus MQRO_PASS_DISCARD_AND_EXPIRY for -xp yes."""
        return self.report | (mqc.MQRO_PASS_DISCARD_AND_EXPIRY if self.pass_expiry else 0)

    @property
    def md_expiry(self) -> int:
        """MQMD.Expiry in tenths of a second."""
        return self.expiry * 10

    @property
    def expects_responses(self) -> bool:
        """True when replies or reports will be sent to the ReplyToQ (it must be named)."""
        return self.reply or bool(self.report & REPORT_GENERATING)


def _text(_option: str, value: object) -> str:
    return str(value)


def _number(option: str, value: object) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"-{option} {value!r} is not a whole number") from None


def _flag(option: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"-{option} takes no value; pass True or False")
    return value


_OPTION_FIELDS = {
    "l": ("persistence", lambda o, v: _keyword(o, v, PERSISTENCE_KEYWORDS)),
    "p": ("priority", _number),
    "xs": ("expiry", _number),
    "ro": ("report", lambda _o, v: parse_report_options(str(v))),
    "xp": ("pass_expiry", lambda o, v: _keyword(o, v, _YES_NO)),
    "ac": ("accumulate", _flag),
    "ar": ("reply", _flag),
    "d": ("deliver", lambda o, v: _keyword(o, v, DELIVER_KEYWORDS)),
    "f": ("forward", lambda o, v: _keyword(o, v, FORWARD_KEYWORDS)),
    "s": ("max_activities", _number),
    "t": ("detail", lambda o, v: _keyword(o, v, DETAIL_KEYWORDS)),
    "rq": ("reply_to_q", _text),
    "rqm": ("reply_to_q_mgr", _text),
    "q": ("target_q", _text),
    "ts": ("target_topic", _text),
    "qm": ("target_q_mgr", _text),
    "o": ("bind_not_fixed", _flag),
}


def trace_route_group(*, detail: int | None = mqc.MQROUTE_DETAIL_MEDIUM,
                      recorded_activities: int | None = 0,
                      unrecorded_activities: int | None = 0,
                      discontinuity_count: int | None = 0,
                      max_activities: int | None = mqc.MQROUTE_UNLIMITED_ACTIVITIES,
                      accumulate: int | None = mqc.MQROUTE_ACCUMULATE_NONE,
                      forward: int | None = mqc.MQROUTE_FORWARD_IF_SUPPORTED,
                      deliver: int | None = mqc.MQROUTE_DELIVER_NO,
                      extra: tuple[Parameter, ...] = ()) -> Group:
    """A TraceRoute group (eight MQCFINs, spec order, dspmqrte defaults); None leaves one out."""
    values = {"detail": detail, "recorded_activities": recorded_activities,
              "unrecorded_activities": unrecorded_activities,
              "discontinuity_count": discontinuity_count, "max_activities": max_activities,
              "accumulate": accumulate, "forward": forward, "deliver": deliver}
    members: list[Parameter] = [Integer(pid, values[name])
                                for name, pid, _label in TRACE_ROUTE_MEMBERS
                                if values[name] is not None]
    return Group(mqc.MQGACF_TRACE_ROUTE, [*members, *extra])


def build_trace_message(options: TraceOptions, *, msg_id: bytes, put_date: str = "",
                        put_time: str = "", encoding: int = mqc.MQENC_REVERSED,
                        ccsid: int = 819, user_data: bytes = b"", user_format: str = "",
                        user_encoding: int | None = None,
                        user_ccsid: int | None = None) -> tuple[MQMD, bytes]:
    """The trace-route message for `options`: its MQMD and its message data.

    Without user data this is what dspmqrte puts: Format MQADMIN, MQCFH, TraceRoute group.
    With user data (to mimic a message's size or content, trace-route.md §8) the data is
    MQEPH (its MQCFH inside) + TraceRoute group + `user_data`, Format MQHEPCF, and the
    MQEPH describes the user data (`user_*`, defaulting to `encoding` and `ccsid`).
    The PCF data is written in `encoding`'s byte order; MsgId all zeros (MQMI_NONE) lets
    the queue manager generate one at put time (MQPMO_NEW_MSG_ID).
    """
    if len(msg_id) > 24:
        raise ValueError(f"MsgId is {len(msg_id)} bytes, more than 24")
    if options.expects_responses and not options.reply_to_q.strip():
        # trace-route.md §2.2: ReplyToQ must be non-blank for a request or report options.
        raise ValueError("replies or reports are requested but reply_to_q is blank: name the "
                         "reply-to queue (for dspmqrte's default, the dynamic queue opened "
                         f"from {DEFAULT_MODEL_QUEUE})")
    group = trace_route_group(detail=options.detail, max_activities=options.max_activities,
                              accumulate=options.accumulation, forward=options.forward,
                              deliver=options.deliver)
    header = Header(mqc.MQCFT_TRACE_ROUTE, mqc.MQCMD_TRACE_ROUTE)
    if user_data:
        eph = EmbeddedHeader(encoding if user_encoding is None else user_encoding,
                             ccsid if user_ccsid is None else user_ccsid, user_format,
                             mqc.MQEPH_NONE)  # the TraceRoute group carries no strings
        message = Message(header, [group], eph, bytes(user_data), encoding, ccsid)
        fmt = mqc.MQFMT_EMBEDDED_PCF
    else:
        message = Message(header, [group], encoding=encoding, ccsid=ccsid)
        fmt = mqc.MQFMT_ADMIN
    data = encode(message, encoding=encoding, ccsid=ccsid)
    md = MQMD(
        version=mqc.MQMD_VERSION_1, report=options.md_report, msg_type=options.msg_type,
        expiry=options.md_expiry, feedback=mqc.MQFB_NONE, encoding=encoding,
        coded_char_set_id=ccsid, format=fmt.rstrip(), priority=options.priority,
        persistence=options.persistence, msg_id=bytes(msg_id).ljust(24, b"\x00"),
        correl_id=bytes(24), backout_count=0, reply_to_q=options.reply_to_q,
        reply_to_q_mgr=options.reply_to_q_mgr, put_date=put_date, put_time=put_time,
    )
    return md, data
