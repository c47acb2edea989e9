"""The commands' inputs: every message of dmpmqmsg dumps and raw files, each problem reported.

One reader serves every subcommand that takes FILE... (`decode`, `show`, `stats`, `events`,
`follow`): each input is read on its own, an unreadable input, a bad dump line or a message
that does not decode goes to the command's `Problems` (`mqroute: FILE:LINE: reason`,
`mqroute: FILE:offset N: reason`, `mqroute: FILE: reason`) and the rest is still processed.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from mqroute.errors import FatalError, Problems
from pcf.errors import InputError, PCFError
from pcf.limits import describe
from traceroute.readers import STDIN, InputMessage, read_messages, source_name

if TYPE_CHECKING:
    from traceroute.sim.network import Network
    from traceroute.stats import StatsMessage

T = TypeVar("T")
#: The largest text input read whole (amqsevt JSON): larger ones are refused, not read.
MAX_TEXT_BYTES = 256 * 1024 * 1024


def add_inputs(parser: argparse.ArgumentParser, what: str, *, json_help: str,
               nargs: str = "+") -> None:
    """The FILE... positional (`-` is standard input) and `--json` of a reading command."""
    parser.add_argument("files", nargs=nargs, metavar="FILE",
                        help=f"{what}; - reads standard input")
    parser.add_argument("--json", action="store_true", help=json_help)


def read_inputs(paths: Iterable[str], problems: Problems) -> Iterator[InputMessage]:
    """Every message of every input; each unreadable input or dump line is reported to
    `problems` and the rest still read."""
    for path in paths:
        try:
            yield from read_messages(path, on_error=problems.dump_error)
        except InputError as e:
            problems.error(e)


def message_problem(problems: Problems, item: InputMessage, e: PCFError,
                    prefix: str = "") -> None:
    """Report a message that does not decode: `FILE:offset N` in a raw file, `FILE:LINE`
    (with the offset inside the message in the reason) in a dump."""
    if item.line is None and e.offset is not None:
        reason = f"{e.path}: {e.reason}" if e.path else e.reason
        problems(f"{item.source}:offset {e.offset}", prefix + reason)
    else:
        problems(item.place, prefix + str(PCFError(e.reason, offset=e.offset, path=e.path)))


class Inputs:
    """The messages of a command's FILE arguments, decoded by `decode`; messages of another
    kind (the `skip` exceptions) are counted in `skipped`, bad ones reported."""

    def __init__(self, paths: Iterable[str], problems: Problems) -> None:
        self.paths = list(paths)
        self.problems = problems
        self.skipped = 0

    def messages(self) -> Iterator[InputMessage]:
        """Every message of every input (unreadable ones reported)."""
        return read_inputs(self.paths, self.problems)

    def decoded(self, decode: Callable[[InputMessage], T | None],
                skip: tuple[type[Exception], ...] = ()) -> Iterator[T]:
        """decode(message) for every message; None results are dropped, `skip` exceptions
        counted in `skipped`, PCFError reported to the problems."""
        for item in self.messages():
            try:
                value = decode(item)
            except skip:
                self.skipped += 1
                continue
            except PCFError as e:
                message_problem(self.problems, item, e)
                continue
            if value is not None:
                yield value

    def summary(self, text: str) -> str:
        """`mqroute: TEXT[; N other messages skipped]`, the line commands end with."""
        more = f"; {self.skipped} other messages skipped" if self.skipped else ""
        return f"mqroute: {text}{more}"


def read_stats(inputs: Inputs) -> Iterator[StatsMessage]:
    """Every accounting/statistics message of the inputs (`stats`, `metrics`); others
    counted as skipped."""
    from traceroute.stats import NotStatistics, decode_stats

    return inputs.decoded(lambda item: decode_stats(item.md, item.data, source=item.source,
                                                    line=item.line), skip=(NotStatistics,))


def located(e: InputError) -> str:
    """`FILE:offset N: reason` or `FILE: reason`, as every command names a bad input."""
    where = e.source if e.offset is None else f"{e.source}:offset {e.offset}"
    return f"{where}: {e.reason}"


def read_text(path: str, *, limit: int = MAX_TEXT_BYTES, what: str = "text") -> str:
    """A whole UTF-8 text input (`-`: standard input), read to at most `limit` bytes;
    InputError naming it (and the byte offset) when it cannot be read, is larger, or is not
    UTF-8."""
    source = source_name(path)
    try:
        with (contextlib.nullcontext(sys.stdin.buffer) if path == STDIN
              else open(path, "rb")) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(e.strerror or str(e), source=source) from None
    if len(data) > limit:
        raise InputError(f"{what} over {describe(limit)}: not read (split it)", source=source,
                         offset=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 {what} (byte 0x{data[e.start]:02x})", source=source,
                         offset=e.start) from None


def load_mqsc(paths: Iterable[str]) -> Network:
    """One network from MQSC files; FatalError (`FILE:LINE:COL: reason`, or `FILE: reason`
    for a file that cannot be read) when any cannot be read or applied."""
    from traceroute.sim.mqsc import MQSCError, read_mqsc

    paths = list(paths)
    try:
        return read_mqsc(paths)
    except MQSCError as e:
        raise FatalError(e.located) from None
    except OSError as e:
        raise FatalError(f"{e.filename or paths[0]}: {e.strerror or e}") from None
