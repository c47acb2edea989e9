"""Exit statuses and one-line problem reports, the same for every subcommand.

    0  ok
    1  some input unreadable (each named on stderr; the rest was still processed)
    2  usage or fatal error
    3-6  what was found: route and journey verdicts (`trace`, `follow`); findings (`audit`: 3)
    130, 141, 143  interrupted (Ctrl-C), output closed early, terminated (SIGTERM)

Nothing else reaches the user: `run_command` turns every exception into one line
`mqroute: ...` and a status (MQROUTE_DEBUG=1 re-raises, for developers).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from pcf.errors import DumpFormatError, InputError, PCFError
from pcf.text import printable

EXIT_OK = 0
EXIT_UNREADABLE = 1
EXIT_USAGE = 2
EXIT_FATAL = 2
#: `audit`: the configuration (or the traffic) has findings.
EXIT_FINDINGS = 3
#: Output closed early (e.g. piped into `head`), as a shell reports SIGPIPE.
EXIT_BROKEN_PIPE = 141
#: Problems printed per input before the rest are only counted.
SHOWN_PER_SOURCE = 20


#: Ended by SIGTERM (128 + 15, as a shell reports it).
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: unwinds like Ctrl-C, so what a command does on an interrupt (back out
    gets, remove staging folders and temporary files) happens; exit status 143."""


@contextlib.contextmanager
def terminate_cleanly():
    """While the block runs (in the main thread), SIGTERM raises Terminated."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class UsageError(Exception):
    """Wrong arguments: reported as `mqroute: <message>`, exit status 2."""


class FatalError(Exception):
    """An input the command cannot go on without (its MQSC, its operations file) is unusable:
    reported as `mqroute: FILE[:LINE]: reason`, exit status 2."""


def _source_of(where: str) -> str:
    head, sep, tail = where.rpartition(":")
    return head if sep and (tail.isdigit() or tail.startswith("offset")) else where


class Problems:
    """Counts input problems and prints each as `mqroute: WHERE: REASON` (WHERE is FILE,
    FILE:LINE or FILE:offset N); after SHOWN_PER_SOURCE for one input the rest are counted
    and summarised by `finish`. Callable as a `(where, reason)` problem sink."""

    def __init__(self, stream: TextIO | None = None,
                 shown_per_source: int = SHOWN_PER_SOURCE) -> None:
        self.stream = stream
        self.shown_per_source = shown_per_source
        self.count = 0
        self._per_source: dict[str, int] = {}

    def __call__(self, where: str, reason: str) -> None:
        """Report one problem."""
        self.count += 1
        source = _source_of(where)
        seen = self._per_source.get(source, 0) + 1
        self._per_source[source] = seen
        if seen <= self.shown_per_source:  # one line, whatever the data held
            print(f"mqroute: {printable(where)}: {printable(reason)}",
                  file=self.stream or sys.stderr)

    def dump_error(self, e: DumpFormatError) -> None:
        """Report a bad dump line (an `on_error` for readers)."""
        self(f"{e.source}:{e.line}", e.reason)

    def error(self, e: Exception) -> None:
        """Report an exception about an input: InputError, DumpFormatError, PCFError, OSError."""
        if isinstance(e, InputError):
            self(e.source if e.offset is None else f"{e.source}:offset {e.offset}", e.reason)
        elif isinstance(e, DumpFormatError):
            self.dump_error(e)
        elif isinstance(e, PCFError) and e.source:
            self(e.source, str(PCFError(e.reason, offset=e.offset, path=e.path)))
        elif isinstance(e, OSError) and e.filename:
            self(str(e.filename), e.strerror or str(e))
        else:
            self("input", str(e))

    def finish(self) -> None:
        """Say how many problems per input were not printed."""
        for source, seen in self._per_source.items():
            if seen > self.shown_per_source:
                print(f"mqroute: {printable(source)}: {seen - self.shown_per_source} more "
                      f"problems not shown ({seen} in all)", file=self.stream or sys.stderr)
        self._per_source = {s: min(n, self.shown_per_source)
                            for s, n in self._per_source.items()}

    def status(self, ok: int = EXIT_OK) -> int:
        """EXIT_UNREADABLE when there were problems, else `ok` (after `finish`)."""
        self.finish()
        return EXIT_UNREADABLE if self.count else ok


def _say(text: str) -> None:
    text = printable(text)  # one line, whatever a file name or a value held
    print(text if text.startswith("mqroute") else f"mqroute: {text}", file=sys.stderr)


def run_command(func: Callable[[Any], int], args: Any) -> int:
    """Run a subcommand (or the whole command line); every exception becomes one line on
    stderr and an exit status (SystemExit keeps its status; with a message, 2)."""
    try:
        return func(args)
    except BrokenPipeError:  # output piped into `head` and closed: stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Terminated:
        _say("terminated (SIGTERM); nothing half written was left in place")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except (UsageError, FatalError) as e:
        _say(str(e))
        return EXIT_USAGE
    except SystemExit as e:
        if isinstance(e.code, str):
            _say(e.code)
            return EXIT_USAGE
        return e.code if isinstance(e.code, int) else EXIT_OK
    except MemoryError:
        _say("out of memory (an input too large for this machine?)")
        return EXIT_FATAL
    except (OSError, DumpFormatError, PCFError) as e:
        _say(str(e))
        return EXIT_FATAL
    except Exception as e:  # a bug: still one line, never a traceback
        if os.environ.get("MQROUTE_DEBUG"):
            raise
        _say(f"internal error: {type(e).__name__}: {e} (MQROUTE_DEBUG=1 shows where)")
        return EXIT_FATAL
