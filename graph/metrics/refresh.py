"""One refresh: every source read, their values merged and bounded, mqroute's own metrics.

A source is a name and a function that returns its Snapshot and how many input problems it
met; a source that fails is reported (`mqroute_metrics_source_up{source} 0` and a line to
`on_error`) and the others still count. `Cached` re-reads a file source only when one of its
files changed, so a refresh every few seconds costs little and prints each problem once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from graph.metrics.catalog import Family
from graph.metrics.snapshot import Snapshot, bounded, merged, with_status_labels

#: --max-series when none is given: samples exported per refresh, self-metrics excluded.
DEFAULT_MAX_SERIES = 50_000

Reading = tuple[Snapshot, int]


@dataclass(slots=True)
class Source:
    """A named source of metric values: `read()` gives (values, input problems met)."""

    name: str
    read: Callable[[], Reading]


def fingerprint(paths: Iterable[str], *, limit: int = 100_000) -> tuple:
    """What changes when any of these files, or any file under these folders, changes:
    (path, size, mtime, inode) of each, at most `limit` files; missing ones count too."""
    out: list[tuple] = []
    for path in paths:
        p = Path(path)
        entries = sorted(p.rglob("*")) if p.is_dir() else [p]
        for e in [p, *entries][:limit]:
            try:
                st = e.stat()
            except OSError:
                out.append((str(e), None))
                continue
            out.append((str(e), st.st_size, st.st_mtime_ns, st.st_ino))
            if len(out) >= limit:
                return tuple(out)
    return tuple(out)


class Cached:
    """A file source read again only when its files' fingerprint changes."""

    def __init__(self, paths: Sequence[str], read: Callable[[], Reading]) -> None:
        self.paths = [p for p in paths if p != "-"]
        self.read_files = read
        self.key: tuple | None = None
        self.value: Reading | None = None
        self.once = len(self.paths) != len(paths)  # standard input is read once

    def __call__(self) -> Reading:
        """The source's values, read again if a file changed since the last time."""
        key = fingerprint(self.paths)
        if self.value is None or (key != self.key and not self.once):
            self.value = self.read_files()
            self.key = key
        return self.value


class Refresher:
    """Reads every source and makes the snapshot to export."""

    def __init__(self, sources: Sequence[Source], *, max_series: int = DEFAULT_MAX_SERIES,
                 on_error: Callable[[str, str], None] | None = None,
                 clock: Callable[[], float] = time.time,
                 keep: Callable[[Family, dict[str, str]], bool] | None = None) -> None:
        self.sources = list(sources)
        self.keep = keep
        self.max_series = max_series
        self.on_error = on_error or (lambda source, reason: None)
        self.clock = clock
        self.last_error: dict[str, str] = {}

    def refresh(self) -> Snapshot:
        """One refresh: the values of every source (those `keep` keeps), bounded, and the
        self-metrics."""
        started = time.perf_counter()
        parts: list[Snapshot] = []
        up: dict[str, tuple[int, int]] = {}
        for source in self.sources:
            try:
                snap, problems = source.read()
            except Exception as e:  # a source that fails must not stop the others
                reason = str(e) if isinstance(e, OSError | ValueError | ImportError) \
                    else f"{type(e).__name__}: {e}"
                if self.last_error.get(source.name) != reason:  # once, not every refresh
                    self.on_error(source.name, reason)
                self.last_error[source.name] = reason
                up[source.name] = (0, 0)
                continue
            self.last_error.pop(source.name, None)
            parts.append(snap)
            up[source.name] = (1, problems)
        values = with_status_labels(merged(parts))
        if self.keep is not None:
            values = values.kept(self.keep)
        values, dropped = bounded(values, self.max_series)
        exported = len(values)
        for name, (ok, problems) in up.items():
            values.put("mqroute_metrics_source_up", {"source": name}, ok)
            values.put("mqroute_metrics_input_problems", {"source": name}, problems)
        for name, n in dropped.items():
            values.put("mqroute_metrics_dropped_series", {"family": name}, n)
        values.put("mqroute_metrics_series", {}, exported)
        values.put("mqroute_metrics_refresh_seconds", {}, time.perf_counter() - started)
        values.put("mqroute_metrics_last_refresh_timestamp_seconds", {}, self.clock())
        return values
