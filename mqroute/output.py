"""What the subcommands print and write: routes as dspmqrte text or JSON, `--graph`
pictures, and the two rules every output keeps.

* Text on a terminal: `terminal_safe` (installed by `mqroute.main` around every command)
  passes everything written to standard output and error through `pcf.text.printable`, so
  no control character from data (ESC, CSI, OSC, C1, a carriage return ...) reaches the
  terminal raw; renderers escape names themselves too (line breaks in a name included).
* Files: `replacing(path)` / `write_file(path, data)` write to a temporary file beside the
  output and rename it into place only when complete (fsynced), so a full disk, a file size
  limit, an error or a kill leaves the previous file as it was; the error names the file.
  Every command writes its files through them.
* Standard output before a destructive get becomes final (trace, live reads):
  `output_written()` flushes it (and fsyncs it when it is a file); `OutputError` if that
  fails, so the gets are backed out instead.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from mqroute.paths import OutputPath
from pcf.pids import alive
from pcf.text import printable
from traceroute.display import (
    OUTLINE_OPTIONS,
    branch_results,
    render_route,
    route_heading,
    route_to_dict,
)
from traceroute.routes import Route


def parse_verbosity(words: Sequence[str]) -> tuple[str, list[str]]:
    """dspmqrte's -v: a level (summary, outline, all, none) and outline's display options."""
    level, *rest = words or ["summary"]
    options = [o for w in rest for o in w.split(",") if o]
    if level not in LEVELS:
        raise SystemExit(f"mqroute: -v {level}: use summary, outline, all or none")
    bad = set(options) - OUTLINE_OPTIONS
    if bad or (options and level != "outline"):
        raise SystemExit(f"mqroute: -v {' '.join(words)}: display options go with outline: "
                         f"{', '.join(sorted(OUTLINE_OPTIONS))}")
    return level, options


LEVELS = ("summary", "outline", "all", "none")


def verbosity_word(word: str) -> bool:
    """Whether a word belongs to dspmqrte's -v: a level or outline's display options."""
    return word in LEVELS or all(o in OUTLINE_OPTIONS for o in word.split(",") if o)


def add_verbosity(parser: argparse.ArgumentParser, *, unset: bool = False) -> None:
    """dspmqrte's `-v LEVEL [OPTIONS]`: stops at the first word that is not its own, so the
    files after it stay the command's. With `unset`, `args.v` is None when -v is not given
    (summary all the same), so a command can tell that -v was asked for."""
    from mqroute.options import several

    several(parser, "-v", dest="v", replace=True, accepts=verbosity_word,
            default=None if unset else ["summary"],
            metavar="LEVEL", help="summary (default), outline [activity,identifiers,message,"
                                  "msgdelta,operation,traceroute], all or none")


#: Where a route stopped, explained by the queue manager now: (sentence, live_status).
Live = Callable[[Route], "tuple[str, list[dict]] | None"]


def print_route(route: Route, *, as_json: bool, level: str, options: Sequence[str],
                heading: bool = True, parameters: str | None = None,
                live: Live | None = None) -> None:
    """One route as a JSON line, or as dspmqrte's text (with `show`'s heading, notes and
    blank line unless heading=False, as `trace` prints it); `live` adds where it waits
    explained now ("live_status" in JSON, a 'Now:' line in text)."""
    now = live(route) if live is not None else None
    if as_json:
        document = route_to_dict(route, parameters=parameters)
        if now is not None:
            document["live_status"] = now[1]
        print(json.dumps(document))
        return
    if heading:
        print(route_heading(route))
        for line in branch_results(route):  # a fan-out: each end (a publication's copies)
            print(line)
    for line in render_route(route, level, list(options)):
        print(line)
    if now is not None:
        print(printable(f"Now: {now[0]}"))
    if heading:
        for note in route.notes:
            print(printable(f"note: {note}"))
        print()


def print_routes(routes: Iterable[Route], *, as_json: bool, verbosity: Sequence[str],
                 live: Live | None = None) -> int:
    """Print routes as dspmqrte-style text or JSON Lines; the number printed."""
    level, options = parse_verbosity(verbosity)
    count = 0
    for route in routes:
        count += 1
        print_route(route, as_json=as_json, level=level, options=options, live=live)
    return count


#: What `--graph FILE` can write, by the file's suffix.
GRAPH_SUFFIXES = (".png", ".svg", ".pdf", ".graphml", ".json")


def graph_file(text: str) -> OutputPath:
    """argparse type of `--graph FILE`: an output whose suffix names a form we write
    (checked before any work)."""
    if Path(text).suffix.lower() not in GRAPH_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{text}: use a file ending in {', '.join(GRAPH_SUFFIXES[:-1])} or "
            f"{GRAPH_SUFFIXES[-1]}")
    return OutputPath(text)


def add_graph_option(parser: argparse.ArgumentParser) -> None:
    """`--graph FILE`: also draw the routes."""
    parser.add_argument("--graph", metavar="FILE", type=graph_file,
                        help="also draw the route(s): .png, .svg or .pdf picture, .graphml "
                             "or .json (node-link)")


#: --graph's picture suffixes (Graphviz through pygraphviz); the others need networkx alone.
PICTURES = (".png", ".svg", ".pdf")


def check_graph(args: argparse.Namespace) -> None:
    """`--graph FILE` without networkx, or a picture without pygraphviz: one line naming the
    extra, before any work (exit 2; the suffix itself is checked by `graph_file`)."""
    path = getattr(args, "graph", None)
    if not path or path is True:  # analyze's --graph is a flag
        return
    from mqroute.extras import need

    picture = Path(str(path)).suffix.lower() in PICTURES
    need(args.command, "networkx", *(("pygraphviz",) if picture else ()))


def draw_routes(args: argparse.Namespace, routes: list[Route]) -> None:
    """`--graph FILE`: the routes as one picture or export."""
    if not getattr(args, "graph", None) or not routes:
        return
    from graph.draw.dot import LayoutError
    from graph.routegraph import export, network_graph

    title = routes[0].verdict.text if len(routes) == 1 else f"{len(routes)} routes"
    try:
        data = export(network_graph(routes), Path(args.graph).suffix, title=title)
    except LayoutError as e:
        print(printable(f"mqroute: {args.graph}: the route graph was not drawn: {e}"),
              file=sys.stderr)
        return
    path = write_file(args.graph, data)
    print(f"mqroute: route graph written to {path}", file=sys.stderr)


class OutputError(OSError):
    """Standard output could not be written (a full disk, a closed file)."""


def output_written() -> None:
    """Flush standard output (and fsync it when it is a file); OutputError if that fails."""
    try:
        sys.stdout.flush()
        fd = sys.stdout.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fsync(fd)
    except BrokenPipeError:
        raise
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return  # not a real file (captured in tests, or an in-memory stream)
    except OSError as e:
        raise OutputError(e.errno, e.strerror or str(e)) from None


def print_json_lines(objects: Iterable[object], *, ensure_ascii: bool = True) -> int:
    """Print each object as one line of JSON (JSON Lines) on standard output; how many."""
    count = 0
    for obj in objects:
        print(json.dumps(obj, ensure_ascii=ensure_ascii))
        count += 1
    return count


# --- text: nothing raw from data reaches a terminal ----------------------------------------

#: What text streams keep as they are: line breaks and tabs between fields.
TEXT_KEEPS = "\n\t"


class SafeText:
    """A text stream that writes through `pcf.text.printable` (keeping line breaks and
    tabs) to the stream it wraps; everything else (fileno, flush, buffer ...) is the
    wrapped stream's."""

    def __init__(self, stream: IO[str], keep: str = TEXT_KEEPS) -> None:
        self.stream = stream
        self.keep = keep

    def write(self, text: str) -> int:
        """Write `text`, controls escaped; returns len(text) as a text stream does."""
        self.stream.write(printable(text, self.keep))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:  # type: ignore[override]
        """Write each line."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the wrapped stream."""
        self.stream.flush()

    def fileno(self) -> int:
        """The wrapped stream's descriptor."""
        return self.stream.fileno()

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return self.stream.isatty()

    def writable(self) -> bool:
        """True."""
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def terminal_safe() -> Iterator[None]:
    """While the block runs, standard output and error escape control characters."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeText(sys.stdout), SafeText(sys.stderr)
    try:
        yield
    finally:
        for wrapped in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                wrapped.flush()
        sys.stdout, sys.stderr = saved


# --- files: written beside, renamed into place ---------------------------------------------

class WriteError(OSError):
    """An output file could not be written; the previous file (if any) is untouched."""


PART = ".mqroute-part"


def _target(path: str | os.PathLike) -> Path:
    """Where the bytes go: through a symbolic link to the file it names (the link stays)."""
    return Path(os.path.realpath(path))


def _remove_stale_parts(folder: Path, name: str) -> None:
    """Remove temporary files a killed run left beside this output (their process gone)."""
    with contextlib.suppress(OSError):
        for part in folder.glob(f".{glob_escape(name)}.*{PART}"):
            pid = part.name[len(name) + 2:-len(PART)].partition(".")[0]
            if pid.isdigit() and not alive(int(pid)):
                with contextlib.suppress(OSError):
                    part.unlink()


def glob_escape(text: str) -> str:
    """`text` with glob's special characters taken literally."""
    import glob

    return glob.escape(text)


@contextlib.contextmanager
def replacing(path: str | os.PathLike, mode: str = "w", *,
              encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """A file object to write `path` through: a temporary file beside it, fsynced and
    renamed over `path` when the block ends cleanly, removed (and `path` untouched) when it
    does not. `path` that is not a regular file (a FIFO, /dev/null, a terminal) is written
    directly. WriteError names the file when it cannot be written."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode {mode!r}: 'w' or 'wb'")
    target = _target(path)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as e:
        raise WriteError(f"{path}: cannot be written ({e.strerror})") from None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise WriteError(f"{path}: is a folder, not a file")
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        try:
            f = open(target, mode, **({} if "b" in mode else {"encoding": encoding}))  # noqa: SIM115
        except OSError as e:
            raise WriteError(f"{path}: cannot be written ({e.strerror})") from None
        with f:
            yield f
        return
    folder = target.parent
    _remove_stale_parts(folder, target.name)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=PART,
                                    dir=folder)
    except OSError as e:
        raise WriteError(f"{path}: cannot be written ({e.strerror})") from None
    try:
        with contextlib.suppress(OSError):
            os.fchmod(fd, stat.S_IMODE(existing.st_mode) if existing is not None
                      else 0o666 & ~_umask())
        f = os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": encoding}))
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(e, OSError) and not isinstance(e, WriteError):
            raise WriteError(f"{path}: cannot be written ({e.strerror or e}); the "
                             "previous file, if any, is untouched") from None
        raise


def _umask() -> int:
    """The process's umask (read from /proc where it can be, without changing it)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: str | os.PathLike, data: bytes | str) -> Path:
    """Write a whole output file through `replacing`; the path."""
    with replacing(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return Path(path)
