"""mqroute's own progress for long commands (analyze on Spark or in one process).

On a terminal: one tqdm status line (the stage, messages read, routes built, elapsed time),
rewritten in place. Elsewhere (a log file, CI, a pipe): plain lines `mqroute: [12.3 s]
STAGE`, one per stage, and `... still STAGE` every `every` seconds while a stage runs (so a
log shows the job is alive, without flooding it). The first line is written at once.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO


class Progress:
    """Stages of one command, shown as a status line on a terminal or as plain lines."""

    def __init__(self, command: str, *, stream: TextIO | None = None, every: float = 30.0,
                 bar: bool | None = None) -> None:
        self.command = command
        self._own = None
        if stream is None and _is_fd2(sys.stderr):
            # our own copy of the terminal: Spark's JVM may take file descriptor 2 while it
            # starts (mqroute.graphopts.jvm_output), and the progress goes on meanwhile
            self._own = os.fdopen(os.dup(2), "w", buffering=1)
        self.stream = stream or self._own or sys.stderr
        self.every = every
        self.start = time.monotonic()
        self._stage = ""
        self._said = self.start
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._bar = None
        tty = bar if bar is not None else _isatty(self.stream)
        if tty:
            try:
                from tqdm import tqdm
            except ImportError:
                tty = False
            else:
                self._bar = tqdm(total=None, file=self.stream, bar_format="{desc} [{elapsed}]",
                                 dynamic_ncols=True, leave=False)
        self._ticker = threading.Thread(target=self._tick, daemon=True)
        self._ticker.start()

    @property
    def elapsed(self) -> float:
        """Seconds since the command started."""
        return time.monotonic() - self.start

    def __call__(self, text: str) -> None:
        """A new stage (or a line of news: `mqroute: ...` lines are printed as they are)."""
        with self._lock:
            if text.startswith("mqroute:"):  # a problem or a result: a line of its own
                self._write(text)
                return
            self._stage = text
            self._said = time.monotonic()
            if self._bar is not None:
                self._bar.set_description_str(f"mqroute {self.command}: {text}")
                self._bar.refresh()
            else:
                self._write(f"mqroute: [{self.elapsed:.1f} s] {text}")

    def _write(self, line: str) -> None:
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def _tick(self) -> None:
        while not self._stop.wait(min(self.every, 1.0)):
            with self._lock:
                if self._bar is not None:
                    self._bar.refresh()  # the elapsed time moves on
                elif self._stage and time.monotonic() - self._said >= self.every:
                    self._said = time.monotonic()
                    self._write(f"mqroute: [{self.elapsed:.1f} s] still working, after: "
                                f"{self._stage}")

    def close(self) -> None:
        """End the status line (the results that follow are printed below it)."""
        self._stop.set()
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
            if self._own is not None:
                self._own.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_fd2(stream: TextIO) -> bool:
    try:
        return stream.fileno() == 2
    except (AttributeError, ValueError, OSError):
        return False


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
