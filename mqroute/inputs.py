"""The commands' inputs: every message of dmpmqmsg dumps and raw files, each problem reported.

One reader serves every subcommand that takes FILE... (`decode`, `show`, `stats`, `events`,
`follow`): each input is read on its own, an unreadable input, a bad dump line or a message
that does not decode goes to the command's `Problems` (`mqroute: FILE:LINE: reason`,
`mqroute: FILE:offset N: reason`, `mqroute: FILE: reason`) and the rest is still processed.
An input may be `-` (standard input), a file, a folder (its files, recursively, sorted;
names starting with `.` or `_` skipped) or a URI as `analyze` takes them (`s3://`, `gs://`,
`abfs://`, `hdfs://`, `file://`, through `graph.pipeline.storage`); Parquet files with a
binary `data` column (and optionally a packed MQMD in `md`) are read as `analyze` reads them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO, TextIO, TypeVar

from mqroute.errors import FatalError, Problems
from mqroute.paths import input_path
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
    parser.add_argument("files", nargs=nargs, metavar="FILE", type=input_path,
                        help=f"{what}; - reads standard input")
    parser.add_argument("--json", action="store_true", help=json_help)


_URI = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
#: Rows of a Parquet input decoded at a time.
PARQUET_BATCH_ROWS = 4096
#: What reading a URI needs, when it is missing.
URI_EXTRA = "pip install 'mqroute[spark]' (or just pyarrow)"


def expand(path: str, problems: Problems) -> list[str]:
    """The files an input names: itself, or a folder's or URI's files (a folder or URI that
    cannot be listed, or holds no file, is reported and gives none)."""
    if path == STDIN or not (_URI.match(path) or os.path.isdir(path)):
        return [path]
    from graph.pipeline import storage

    try:
        entries = storage.list_files(path)
    except storage.StorageError as e:
        problems(path, _needs_pyarrow(e.reason))
        return []
    if not entries:
        problems(path, "no files in it")
    return [e.uri for e in entries]


def _needs_pyarrow(reason: str) -> str:
    return f"{reason.split(' (')[0]}: {URI_EXTRA}" if "needs pyarrow" in reason else reason


class _Raw(io.RawIOBase):
    """A storage reader as a raw stream, so that io.BufferedReader gives it readline."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.inner.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self.inner.close()
        super().close()


def _open_uri(uri: str) -> io.BufferedReader:
    from graph.pipeline import storage

    try:
        return io.BufferedReader(_Raw(storage.open_input(uri)), 1 << 20)
    except storage.StorageError as e:
        raise InputError(_needs_pyarrow(e.reason), source=uri) from None


def read_parquet(uri: str, problems: Problems) -> Iterator[InputMessage]:
    """The messages of a Parquet file's `data` column (with the MQMDs of its `md` column);
    the row number is the message's line."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        problems(uri, f"reading Parquet needs pyarrow: {URI_EXTRA}")
        return
    from pcf.mqmd import unpack

    with (_open_uri(uri) if _URI.match(uri) else open(uri, "rb")) as f:
        pf = pq.ParquetFile(f)
        names = set(pf.schema_arrow.names)
        if "data" not in names:
            problems(uri, "a Parquet file without a binary data column (not messages)")
            return
        columns = [c for c in ("md", "data") if c in names]
        row = 0
        for batch in pf.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns):
            mds = batch.column("md").to_pylist() if "md" in columns else [None] * batch.num_rows
            for md, data in zip(mds, batch.column("data").to_pylist(), strict=True):
                row += 1
                try:
                    header = unpack(md) if md else None
                except (PCFError, ValueError) as e:
                    problems(f"{uri}:{row}", f"md: {e}")
                    continue
                yield InputMessage(header, data or b"", uri, row)


def read_inputs(paths: Iterable[str], problems: Problems) -> Iterator[InputMessage]:
    """Every message of every input (files, folders, URIs, `-`); each unreadable input or
    dump line is reported to `problems` and the rest still read."""
    for top in paths:
        for path in expand(top, problems):
            try:
                if path.endswith(".parquet"):
                    yield from read_parquet(path, problems)
                    continue
                yield from read_messages(path, on_error=problems.dump_error,
                                         opener=_open_uri if _URI.match(path) else None)
            except InputError as e:
                problems.error(e)
            except OSError as e:  # a Parquet file that cannot be read
                problems(path, e.strerror or str(e))


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
        self.read = 0  # messages read (an empty queue's dump adds none, and is no problem)

    def messages(self) -> Iterator[InputMessage]:
        """Every message of every input (unreadable ones reported)."""
        return read_inputs(self.paths, self.problems)

    def decoded(self, decode: Callable[[InputMessage], T | None],
                skip: tuple[type[Exception], ...] = ()) -> Iterator[T]:
        """decode(message) for every message; None results are dropped, `skip` exceptions
        counted in `skipped`, PCFError reported to the problems."""
        for item in self.messages():
            self.read += 1
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

    def summary(self, text: str, kind: str) -> str:
        """`mqroute: TEXT[; skipped N messages that are not KIND]`, the one line commands end
        with (messages of another kind are counted there, never reported one by one)."""
        return f"mqroute: {text}{skipped_text(self.skipped, kind)}"


def skipped_text(count: int, kind: str) -> str:
    """`; skipped N messages that are not KIND` ('' for none)."""
    if not count:
        return ""
    return (f"; skipped 1 message that is not {kind}" if count == 1
            else f"; skipped {count} messages that are not {kind}")


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


def open_binary(path: str) -> contextlib.AbstractContextManager[BinaryIO]:
    """A binary input to read: `-` (standard input), a URI (through the storage layer) or a
    local file."""
    if path == STDIN:
        return contextlib.nullcontext(sys.stdin.buffer)
    return _open_uri(path) if _URI.match(path) else open(path, "rb", buffering=1 << 20)


def read_text(path: str, *, limit: int = MAX_TEXT_BYTES, what: str = "text") -> str:
    """A whole UTF-8 text input (`-`: standard input), read to at most `limit` bytes;
    InputError naming it (and the byte offset) when it cannot be read, is larger, or is not
    UTF-8."""
    source = source_name(path)
    try:
        with (contextlib.nullcontext(sys.stdin.buffer) if path == STDIN
              else _open_uri(path) if _URI.match(path) else open(path, "rb")) as f:
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


#: What a folder given as --mqsc contributes: its MQSC files (dmpmqcfg output, runmqsc input).
MQSC_SUFFIXES = (".mqsc", ".mqs", ".in", ".txt")


def mqsc_files(paths: Iterable[str]) -> list[str]:
    """The MQSC files of `--mqsc`: files as given; a folder's files ending in .mqsc, .mqs,
    .in or .txt (recursively, sorted; names starting with . or _ skipped), e.g. an estate
    folder or a folder of dmpmqcfg output; FatalError for a folder without one."""
    out: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            out.append(path)
            continue
        found = sorted(
            os.path.join(root, name)
            for root, dirs, names in os.walk(path)
            if not any(part.startswith((".", "_")) for part in
                       os.path.relpath(root, path).split(os.sep) if part != ".")
            for name in names
            if name.lower().endswith(MQSC_SUFFIXES) and not name.startswith((".", "_")))
        if not found:
            raise FatalError(f"{path}: no MQSC files in it (*.mqsc, *.mqs, *.in, *.txt)")
        out += found
    return out


def load_mqsc(paths: Iterable[str], *, strict: bool = False,
              stream: TextIO | None = None) -> Network:
    """One network from MQSC files, each command applied on its own as runmqsc does: one
    that fails is reported on stderr (`mqroute: FILE:LINE:COL: AMQnnnnX: MQ's text
    (why)`), the rest applied, and a file with failures ends with runmqsc's summary
    (`mqroute: FILE: N MQSC commands read. ...`). FatalError when a file cannot be read
    (or is not UTF-8), and with `strict` when any command failed (after all are reported)."""
    from traceroute.sim.mqsc import MQSCError, read_mqsc

    paths = mqsc_files(paths)
    out = stream or sys.stderr
    failed = 0

    def report(outcome) -> None:
        nonlocal failed
        failed += 1
        print(f"mqroute: {outcome.located}", file=out)

    def summary(path: str, session) -> None:
        if session.syntax_errors or session.failed:
            print(f"mqroute: {path}: {' '.join(session.summary())}", file=out)

    try:
        network = read_mqsc(paths, on_error=report, on_file=summary)
    except MQSCError as e:
        raise FatalError(e.located) from None
    except OSError as e:
        raise FatalError(f"{e.filename or paths[0]}: {e.strerror or e}") from None
    if strict and failed:
        raise FatalError(f"{failed} MQSC command{'s' if failed > 1 else ''} failed: not going "
                         "on (--strict)")
    return network
