"""The command line's one vocabulary: options every command spells the same way.

    add_mqsc(p)          --mqsc FILE...        configuration input (dmpmqcfg / runmqsc MQSC)
    add_strict(p)        --strict              an MQSC command that fails stops the command
    add_network(p)       --network demo|FILE.mqsc...   the estate to simulate
    add_msg_id(p)        --msg-id HEX          an original message (repeatable)
    add_filters(p)       --queue --channel --conn-id --appl --since --until (amqsmon/amqsact)
    add_connection(p)    -m -c --channel --conname --ccdt -u/--user --cipher --key-repository
                         --cert-label          how to reach a real queue manager
    add_rest(p)          --rest URL --ca FILE --insecure   MQ's administrative REST API

Options that take several values are made with `several()`: they stop at the next option,
and `untangle()` (run by `mqroute.main` before parsing) gives back the words that are not
theirs, so `show -v all activity.dmp` and `show --events ev.dmp activity.dmp` leave the
positional files to the command. Old spellings stay as hidden aliases (`hidden()`), for one
release.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

#: The word of --network for IBM's QM1/QM2 example network, shipped with the package.
DEMO = "demo"


# --- options that take several values -------------------------------------------------------

def several(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *flags: str,
            accepts: Callable[[str], bool] | None = None, files: bool = False,
            replace: bool = False, **kwargs) -> argparse.Action:
    """An option taking one or more values (repeatable: the values add up, or with
    `replace` the last occurrence wins). `accepts` says which words are its values (the
    first word that is not ends them and goes back to the command's positionals); `files`
    marks file-valued options, whose last value is given back when the command would
    otherwise have no positional input; their values are inputs (`mqroute.paths`) unless
    another `type` is given."""
    if files:
        from mqroute.paths import input_path

        kwargs.setdefault("type", input_path)
    kwargs.setdefault("nargs", "+")
    kwargs.setdefault("default", [])
    action = parser.add_argument(*flags, action=_Replace if replace else "extend", **kwargs)
    action.accepts = accepts  # type: ignore[attr-defined]
    action.files = files  # type: ignore[attr-defined]
    return action


class _Replace(argparse.Action):
    """nargs='+' where the last occurrence wins (dspmqrte's -v)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, list(values))


def hidden(parser: argparse.ArgumentParser, *flags: str, dest: str, **kwargs
           ) -> argparse.Action:
    """An old spelling kept for one release: same destination, not in `--help`."""
    return parser.add_argument(*flags, dest=dest, help=argparse.SUPPRESS, **kwargs)


def _is_option(word: str) -> bool:
    return word.startswith("-") and word != "-" and not _NUMBER.match(word)


_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


def _consumes(action: argparse.Action) -> int | str:
    nargs = action.nargs
    if nargs is None:
        return 1
    if isinstance(nargs, int):
        return nargs
    return nargs  # '?', '*', '+', or argparse's REMAINDER/PARSER


def _pathlike(word: str) -> bool:
    """A word that names an input rather than an option's value: `-`, an existing path, or
    one with a path's or URI's marks."""
    return word == "-" or any(c in word for c in "/.\\:") or os.path.exists(word)


def untangle(parser: argparse.ArgumentParser, words: Sequence[str]) -> list[str]:
    """The words of one subcommand with its positionals gathered after a `--`: those the
    command line put between options, and those its several-valued options would swallow
    but that are not theirs (a word the option does not accept that names a file), so that
    `show -v all a.dmp` and `show a.dmp --json b.dmp` read a.dmp and b.dmp."""
    words = list(words)
    if "--" in words:
        cut = words.index("--")
        head, tail = words[:cut], words[cut + 1:]
    else:
        head, tail = words, []
    options: list[str] = []
    positionals: list[str] = []
    runs = 0           # separate runs of positional words
    previous_positional = False
    last_files: list[str] | None = None  # the values of the last file-valued option run
    moved = False
    actions = parser._option_string_actions
    i = 0
    while i < len(head):
        word = head[i]
        i += 1
        if not _is_option(word):
            positionals.append(word)
            runs += not previous_positional
            previous_positional = True
            continue
        previous_positional = False
        flag = word.split("=", 1)[0] if word.startswith("--") else word
        action = actions.get(flag)
        options.append(word)
        if action is None or "=" in word:
            continue
        want = _consumes(action)
        if isinstance(want, int):
            options.extend(head[i:i + want])
            i += want
            continue
        if want == "?":
            if i < len(head) and not _is_option(head[i]):
                options.append(head[i])
                i += 1
            continue
        if want not in ("+", "*"):  # REMAINDER: everything left is its
            options.extend(head[i:])
            break
        run = []
        while i < len(head) and not _is_option(head[i]):
            run.append(head[i])
            i += 1
        accepts = getattr(action, "accepts", None)
        if accepts is not None:
            n = next((k for k, w in enumerate(run)
                      if k and not accepts(w) and _pathlike(w)), len(run))
            run, back = run[:n], run[n:]
            if back:
                positionals += back
                runs += 1
                moved = True
        options.extend(run)
        last_files = run if getattr(action, "files", False) and len(run) > 1 else None
        if last_files is not None:
            last_files = options  # the run ends `options`: its last value is options[-1]
    if _needs_positional(parser) and not positionals and not tail and last_files:
        positionals.append(options.pop())
        moved = True
    if not moved and runs <= 1 and not tail and \
            positionals == head[len(head) - len(positionals):]:
        return words  # nothing to move: as typed
    return [*options, "--", *positionals, *tail]


def _needs_positional(parser: argparse.ArgumentParser) -> bool:
    return any(not a.option_strings and a.nargs in (None, "+") for a in parser._actions)


# --- configuration, estate, messages ---------------------------------------------------------

def add_mqsc(parser: argparse.ArgumentParser, *, required: bool = False,
             help: str = "dmpmqcfg output (or runmqsc input) of each queue manager",
             old: Iterable[str] = ()) -> argparse.Action:
    """`--mqsc FILE...`: the configuration as MQSC; `old` spellings kept hidden."""
    action = several(parser, "--mqsc", dest="mqsc", metavar="FILE", files=True,
                     required=required, help=help)
    for flag in old:
        several(parser, flag, dest="mqsc", files=True, help=argparse.SUPPRESS)
    return action


def add_strict(parser: argparse.ArgumentParser) -> None:
    """`--strict`: a command of the MQSC that fails stops the command before any work."""
    parser.add_argument("--strict", action="store_true",
                        help="refuse to go on (exit 2) when any MQSC command has a syntax "
                             "error or cannot be processed (by default each is reported, as "
                             "runmqsc does, and the rest applied)")


def add_network(parser: argparse.ArgumentParser, *, help: str | None = None
                ) -> argparse.Action:
    """`--network demo|FILE.mqsc...`: the estate to simulate (`demo`: IBM's QM1/QM2)."""
    return several(parser, "--network", dest="network", metavar="ESTATE", files=True,
                   help=help or "the estate to simulate: demo (IBM's QM1/QM2 example) or "
                                "MQSC files (as --mqsc)")


def msg_id_arg(text: str) -> bytes:
    """A MsgId from hex in either case (spaces and a 0x prefix allowed), padded with nulls
    to 24 bytes as MQ pads it; ValueError if it is not 1 to 24 bytes of hex."""
    clean = text.strip().replace(" ", "")
    clean = clean[2:] if clean.lower().startswith("0x") else clean
    try:
        raw = bytes.fromhex(clean)
    except ValueError:
        raise ValueError(f"{text!r} is not hex (an even number of 0-9, A-F)") from None
    if not raw or len(raw) > 24:
        raise ValueError(f"{text!r} is not a MsgId of 1 to 24 bytes")
    return raw.ljust(24, b"\x00")


def _hexish(word: str) -> bool:
    try:
        msg_id_arg(word)
    except ValueError:
        return False
    return True


def add_msg_id(parser: argparse.ArgumentParser, *short: str, old: Iterable[str] = (),
               help: str = "only this original MsgId (48 hex digits, either case; "
                           "repeatable)") -> argparse.Action:
    """`--msg-id HEX...` (and dspmqrte's `-i` where given in `short`); `old` kept hidden."""
    action = several(parser, "--msg-id", *short, dest="msg_id", metavar="HEX",
                     accepts=_hexish, help=help)
    for flag in old:
        several(parser, flag, dest="msg_id", accepts=_hexish, help=argparse.SUPPRESS)
    return action


def msg_ids(args: argparse.Namespace, flag: str = "--msg-id") -> set[bytes]:
    """The MsgIds of --msg-id, padded to 24 bytes; UsageError naming a bad one."""
    from mqroute.errors import UsageError

    out = set()
    for text in getattr(args, "msg_id", None) or []:
        try:
            out.add(msg_id_arg(text))
        except ValueError as e:
            raise UsageError(f"{flag}: {e}") from None
    return out


# --- filters, as amqsmon and amqsact have them ------------------------------------------------

def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def add_filters(parser: argparse.ArgumentParser, *, conn_id: bool = True,
                appl: bool = True) -> None:
    """--queue, --channel, --conn-id, --appl (repeatable, comma lists, `*` generic),
    --since and --until (ISO 8601 or MQ's 'YYYY-MM-DD HH.MM.SS')."""
    group = parser.add_argument_group(
        "filters", "as amqsmon and amqsact filter: each repeatable or a comma list; a name "
                   "ending or containing * is generic (ORDERS.*)")
    group.add_argument("--queue", action="append", default=[], metavar="NAME",
                       help="only records about this queue (an object, resolved or base name)")
    group.add_argument("--channel", action="append", default=[], metavar="NAME",
                       help="only records about this channel")
    if conn_id:
        group.add_argument("--conn-id", action="append", default=[], metavar="HEX",
                           help="only this connection (ConnectionId, hex; a prefix is enough)")
    if appl:
        group.add_argument("--appl", action="append", default=[], metavar="NAME",
                           help="only this application (ApplName)")
    group.add_argument("--since", metavar="TIME", help="only from this time on (ISO 8601, "
                       "e.g. 2026-11-22T10:00:00Z, or MQ's 2026-11-22 10.00.00; UTC unless "
                       "a zone is given)")
    group.add_argument("--until", metavar="TIME", help="only before this time")


def parse_time(text: str) -> datetime:
    """A time as ISO 8601 or MQ's `YYYY-MM-DD HH.MM.SS` (or `YYYY-MM-DD`), UTC when it has
    no zone; ValueError otherwise."""
    clean = text.strip()
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[ T](\d{2})[.:](\d{2})[.:](\d{2})(\.\d+)?(.*)", clean)
    if m:
        clean = f"{m[1]}T{m[2]}:{m[3]}:{m[4]}{m[5] or ''}{m[6].strip()}"
    try:
        when = datetime.fromisoformat(clean.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r}: give ISO 8601 (2026-11-22T10:00:00Z) or MQ's date and "
                         "time (2026-11-22 10.00.00)") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _match(patterns: list[str], value: str | None) -> bool:
    if value is None:
        return False
    value = value.strip()
    return any(fnmatch.fnmatchcase(value, p) if "*" in p else value == p for p in patterns)


@dataclass
class Filters:
    """What --queue/--channel/--conn-id/--appl/--since/--until keep. Each test says whether a
    record with these values passes; values a record does not have (None) pass only when
    that filter is not set."""

    queues: list[str] = field(default_factory=list)
    channels: list[str] = field(default_factory=list)
    conn_ids: list[str] = field(default_factory=list)
    appls: list[str] = field(default_factory=list)
    since: datetime | None = None
    until: datetime | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Filters:
        """The filters of the command line; UsageError naming a bad time or id."""
        from mqroute.errors import UsageError

        def times(flag: str) -> datetime | None:
            text = getattr(args, flag, None)
            if not text:
                return None
            try:
                return parse_time(text)
            except ValueError as e:
                raise UsageError(f"--{flag} {e}") from None

        conn = [n.upper() for t in getattr(args, "conn_id", []) or [] for n in _names(t)]
        for c in conn:
            if not re.fullmatch(r"[0-9A-F]+\*?", c.replace("*", "") + ("*" if "*" in c else "")):
                raise UsageError(f"--conn-id {c}: not hex")
        made = cls([n for t in getattr(args, "queue", []) or [] for n in _names(t)],
                   [n for t in getattr(args, "channel", []) or [] for n in _names(t)],
                   conn, [n for t in getattr(args, "appl", []) or [] for n in _names(t)],
                   times("since"), times("until"))
        if made.since and made.until and made.since >= made.until:
            raise UsageError(f"--since {args.since} is not before --until {args.until}")
        return made

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return bool(self.queues or self.channels or self.conn_ids or self.appls
                    or self.since or self.until)

    def names(self, *, queues: Iterable[str | None] = (), channels: Iterable[str | None] = (),
              appl: str | None = None, conn_id: bytes | str | None = None) -> bool:
        """Whether a record naming these queues, channels, application and connection
        passes the name filters (any of its queues, any of its channels)."""
        if self.queues and not any(_match(self.queues, q) for q in queues):
            return False
        if self.channels and not any(_match(self.channels, c) for c in channels):
            return False
        if self.appls and not _match(self.appls, appl):
            return False
        if self.conn_ids:
            if conn_id is None:
                return False
            text = conn_id.hex().upper() if isinstance(conn_id, bytes) else conn_id.upper()
            if not any(text.startswith(c.rstrip("*")) if "*" in c or len(c) < len(text)
                       else text == c for c in self.conn_ids):
                return False
        return True

    def time(self, start: datetime | None, end: datetime | None = None) -> bool:
        """Whether a record of this time (since <= time < until) or interval (overlapping
        [since, until)) passes --since/--until; naive times are taken as UTC."""
        if not (self.since or self.until):
            return True
        if start is None and end is None:
            return False
        start = _utc(start or end)
        end = _utc(end or start)
        if self.since and (end < self.since or (end == self.since and start < end)):
            return False  # an interval ending at --since is before it
        return not (self.until and start >= self.until)


def _utc(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=UTC)


# --- reaching a real queue manager -----------------------------------------------------------

#: The connection options' destinations and flags (refused where a simulated estate is used).
CONNECTION = (("client", "-c"), ("channel", "--channel"), ("client_channel", "--client-channel"),
              ("conname", "--conname"), ("ccdt", "--ccdt"), ("user", "--user"),
              ("cipher", "--cipher"), ("key_repository", "--key-repository"),
              ("cert_label", "--cert-label"))


def add_connection(parser: argparse.ArgumentParser, *, qmgr: bool = True,
                   channel_flag: str = "--channel") -> None:
    """How to reach a real queue manager: -m, -c and the client options (as dspmqrte and
    runmqsc spell them; each client option implies -c). A command whose own --channel names
    the channels it is about (status) spells the client channel `--client-channel`."""
    from mqroute.paths import address

    group = parser.add_argument_group("connection", "a real queue manager, through IBM's MQ "
                                      "client (pip install 'mqroute[mq]')")
    if qmgr:
        group.add_argument("-m", dest="qmgr", default="", metavar="QMGR",
                           help="queue manager to connect to (on a simulated estate: the one to "
                                "start from; default: the default queue manager)")
    group.add_argument("-c", dest="client", action="store_true", help="connect as a client")
    group.add_argument(channel_flag, dest="channel" if channel_flag == "--channel"
                       else "client_channel", metavar="CHANNEL",
                       help="client channel, SVRCONN (implies -c; with --conname)")
    group.add_argument("--conname", help="client connection name, e.g. host(1414) (implies "
                                         "-c; with --channel)")
    group.add_argument("--ccdt", metavar="URL", type=address,
                       help="client channel definition table URL (implies -c; sets MQCCDTURL)")
    group.add_argument("-u", "--user", dest="user", metavar="USER",
                       help="user id, in bindings or as a client (the password comes from "
                            "MQROUTE_PASSWORD or a prompt on the terminal)")
    group.add_argument("--cipher", help="TLS CipherSpec of the client channel (implies -c; "
                                        "with --channel/--conname or MQSERVER, not --ccdt)")
    group.add_argument("--key-repository", dest="key_repository", metavar="STEM",
                       help="TLS key repository as MQSSLKEYR names it, e.g. /var/mqm/ssl/key "
                            "(implies -c)")
    group.add_argument("--cert-label", dest="cert_label", metavar="LABEL",
                       help="TLS certificate label (implies -c; with --channel/--conname or "
                            "MQSERVER, not --ccdt)")


def add_rest(parser: argparse.ArgumentParser) -> None:
    """--rest URL, --ca FILE and --insecure: ask through MQ's administrative REST API (with
    -m and -u/--user of the connection options; the password as theirs)."""
    from mqroute.paths import address, input_path

    group = parser.add_argument_group(
        "REST API", "ask through IBM MQ's administrative REST API (mqweb) instead of the "
                    "MQI: -m names the queue manager, -u/--user the user (password: "
                    "MQROUTE_PASSWORD or a prompt); needs httpx (pip install 'mqroute[rest]')")
    group.add_argument("--rest", metavar="URL", type=address,
                       help="the mqweb server, e.g. https://mqweb.example:9443")
    group.add_argument("--ca", metavar="FILE", type=input_path,
                       help="the CA certificate(s), PEM, the server's certificate is checked "
                            "against (default: the system's)")
    group.add_argument("--insecure", action="store_true",
                       help="do not check the server's certificate at all (insecure)")


def rest_given(args: argparse.Namespace) -> bool:
    """True when the REST API is asked for (--rest, or its --ca/--insecure)."""
    return bool(getattr(args, "rest", None) or getattr(args, "ca", None)
                or getattr(args, "insecure", False))


def _client_channel(args: argparse.Namespace) -> str:
    value = getattr(args, "client_channel", None) or getattr(args, "channel", None)
    return value if isinstance(value, str) else ""  # status's --channel is a list of names


def connection_given(args: argparse.Namespace) -> list[str]:
    """The connection options given (their flags), e.g. to refuse them with --network."""
    return [flag for key, flag in CONNECTION if key not in ("channel", "client_channel")
            and getattr(args, key, None)] + \
        ([flag for key, flag in CONNECTION if key in ("channel", "client_channel")
          and getattr(args, key, None) == _client_channel(args) != ""][:1])


def connection_of(args: argparse.Namespace):
    """The traceroute.mq Connection the options ask for (password resolved);
    ConnectionOptionError when they do not fit together."""
    from traceroute.mq.options import client_connection, password_for

    return password_for(client_connection(
        getattr(args, "qmgr", "") or "", client=args.client, channel=_client_channel(args),
        conname=args.conname or "", ccdt=args.ccdt or "", user=args.user or "",
        cipher=args.cipher or "", key_repository=args.key_repository or "",
        cert_label=args.cert_label or ""))
