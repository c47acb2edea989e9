"""A snapshot of metric values: families -> label values -> value (or histogram); pure.

Sources fill a Snapshot; `merge` joins them; `bounded` keeps at most N series (each
family gets a fair share, series kept in label order so the same ones stay from one refresh
to the next) and says how many each family lost. Label values pass through
`graph.metrics.labels.label_value` (names are data from messages).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from graph.metrics.catalog import BY_NAME, COUNTER, FAMILIES, Family
from graph.metrics.labels import label_value


def number(value: object) -> float | None:
    """A finite, non-negative float from a count a message claims, or None (negative counts
    read as 0, as mq-metric-samples reads them; NaN and infinities are refused)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    f = float(value)
    if math.isnan(f) or math.isinf(f):
        return None
    return max(f, 0.0)


@dataclass(slots=True)
class Histogram:
    """Observations in a family's buckets: per-bucket counts (the last is +Inf), sum,
    count, min and max."""

    bounds: tuple[float, ...]
    counts: list[int] = field(default_factory=list)
    sum: float = 0.0
    count: int = 0
    min: float = math.inf
    max: float = -math.inf

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, value: float) -> None:
        """Count one observation."""
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1
        self.min = min(self.min, value)
        self.max = max(self.max, value)

    def merge(self, other: Histogram) -> None:
        """Add another histogram of the same buckets."""
        self.counts = [a + b for a, b in zip(self.counts, other.counts, strict=True)]
        self.sum += other.sum
        self.count += other.count
        self.min = min(self.min, other.min)
        self.max = max(self.max, other.max)

    def cumulative(self) -> list[tuple[float, int]]:
        """(upper bound, observations at or below it), +Inf last: Prometheus's buckets."""
        out, total = [], 0
        for bound, n in zip((*self.bounds, math.inf), self.counts, strict=True):
            total += n
            out.append((bound, total))
        return out


Value = float | Histogram
#: How a second value for the same series combines with the first.
COMBINE = {"set": lambda a, b: b, "sum": lambda a, b: a + b, "max": max, "min": min}


@dataclass(slots=True)
class Snapshot:
    """Metric values by family name and label values (in the family's label order)."""

    series: dict[str, dict[tuple[str, ...], Value]] = field(default_factory=dict)

    def put(self, name: str, labels: Mapping[str, object], value: object,
            how: str = "set") -> None:
        """Record a value (a count, a gauge reading); `how` combines it with one already
        there: set, sum, max or min. Values that are not finite numbers are ignored."""
        self.put_at(name, key_of(name, labels), value, how)

    def put_at(self, name: str, key: tuple[str, ...], value: object, how: str = "set") -> None:
        """`put` with the label values already made by `key_of` (many families of one
        object share them)."""
        v = number(value)
        if v is None:
            return
        values = self.series.setdefault(name, {})
        old = values.get(key)
        values[key] = v if old is None else COMBINE[how](old, v)

    def observe(self, name: str, labels: Mapping[str, object], value: float) -> None:
        """Count one observation in a histogram family."""
        fam = BY_NAME[name]
        v = number(value)
        if v is None:
            return
        values = self.series.setdefault(name, {})
        key = _key(fam, labels)
        h = values.get(key)
        if not isinstance(h, Histogram):
            h = values[key] = Histogram(fam.buckets)
        h.observe(v)

    def put_histogram(self, name: str, labels: Mapping[str, object], hist: Histogram) -> None:
        """Add observations already bucketed in the family's buckets."""
        fam = BY_NAME[name]
        if hist.bounds != fam.buckets:
            raise ValueError(f"{name}: buckets {hist.bounds} are not the family's")
        values = self.series.setdefault(name, {})
        key = _key(fam, labels)
        old = values.get(key)
        if isinstance(old, Histogram):
            old.merge(hist)
        else:
            values[key] = _copy(hist)

    def get(self, name: str, **labels: object) -> Value | None:
        """The value of one series (missing labels read as ''), or None."""
        return self.series.get(name, {}).get(_key(BY_NAME[name], labels))

    def merge(self, other: Snapshot) -> None:
        """Add another snapshot's series: the same series of a counter adds up, of a gauge
        takes the other's reading, of a histogram merges the observations."""
        for name, values in other.series.items():
            how = "sum" if BY_NAME[name].kind == COUNTER else "set"
            mine = self.series.setdefault(name, {})
            for key, value in values.items():
                old = mine.get(key)
                if isinstance(old, Histogram) and isinstance(value, Histogram):
                    old.merge(value)
                elif old is None or isinstance(old, Histogram) or isinstance(value, Histogram):
                    mine[key] = _copy(value)
                else:
                    mine[key] = COMBINE[how](old, value)

    def kept(self, keep: Callable[[Family, dict[str, str]], bool]) -> Snapshot:
        """The series `keep(family, labels)` keeps (a new snapshot sharing the values)."""
        out = Snapshot()
        for fam, values in self.families():
            mine = {k: v for k, v in values.items() if keep(fam, dict(zip(fam.labels, k,
                                                                          strict=True)))}
            if mine:
                out.series[fam.name] = mine
        return out

    def families(self) -> Iterator[tuple[Family, dict[tuple[str, ...], Value]]]:
        """(family, series) of every family with series, in the catalog's order."""
        for fam in FAMILIES:
            values = self.series.get(fam.name)
            if values:
                yield fam, values

    def __len__(self) -> int:
        """Samples Prometheus stores: one per number, buckets + 2 per histogram."""
        return sum(cost(v) for values in self.series.values() for v in values.values())


def cost(value: Value) -> int:
    """Series Prometheus keeps for one value: 1, or buckets + _sum + _count."""
    return len(value.counts) + 2 if isinstance(value, Histogram) else 1


def key_of(name: str, labels: Mapping[str, object]) -> tuple[str, ...]:
    """The label values of a series of this family, in its label order."""
    return _key(BY_NAME[name], labels)


def _key(fam: Family, labels: Mapping[str, object]) -> tuple[str, ...]:
    extra = set(labels) - set(fam.labels)
    if extra:
        raise KeyError(f"{fam.name} has no label {sorted(extra)[0]!r}")
    return tuple(label_value(labels.get(n)) for n in fam.labels)


def _copy(value: Value) -> Value:
    if isinstance(value, Histogram):
        return Histogram(value.bounds, list(value.counts), value.sum, value.count, value.min,
                         value.max)
    return value


def merged(parts: Iterable[Snapshot]) -> Snapshot:
    """One snapshot of several (see Snapshot.merge)."""
    out = Snapshot()
    for p in parts:
        out.merge(p)
    return out


#: (status family whose series carry an object's labels, the labels that name the object)
_LABELLED_BY = (("ibmmq_queue_depth", ("qmgr", "queue")), ("ibmmq_qmgr_status", ("qmgr",)))


def with_status_labels(snapshot: Snapshot) -> Snapshot:
    """Series of an object whose other labels are all blank (statistics, which say only the
    queue manager and queue) take the labels its live status series carry in the same
    snapshot (platform, usage, description, cluster; a queue manager's platform, description,
    hostname), as mq_prometheus labels its statistics from the attributes it inquired; an
    object without status in the snapshot keeps them blank. In place; returns it."""
    for source, naming in _LABELLED_BY:
        fam = BY_NAME[source]
        at = [fam.labels.index(n) for n in naming]
        known = {tuple(k[i] for i in at): k for k in snapshot.series.get(source, {})}
        if not known:
            continue
        for name, values in list(snapshot.series.items()):
            other = BY_NAME[name]
            if set(other.labels) != set(fam.labels) or name == source:
                continue
            order = [fam.labels.index(n) for n in other.labels]
            moved: dict[tuple[str, ...], Value] = {}
            for key, value in values.items():
                labels = dict(zip(other.labels, key, strict=True))
                full = known.get(tuple(labels[n] for n in naming))
                blank = all(v == "" for n, v in labels.items() if n not in naming)
                new = tuple(full[i] for i in order) if full is not None and blank else key
                old = moved.get(new)
                if old is None or isinstance(old, Histogram) or isinstance(value, Histogram):
                    moved[new] = value if old is None else old
                else:
                    moved[new] = COMBINE["sum" if other.kind == COUNTER else "set"](old, value)
            snapshot.series[name] = moved
    return snapshot


def bounded(snapshot: Snapshot, max_series: int) -> tuple[Snapshot, dict[str, int]]:
    """At most `max_series` samples, shared fairly: round by round each family (in the
    catalog's order) adds its next series in label order while it fits, so every family
    keeps as many series as the others unless it has fewer, and the same series stay from
    one refresh to the next. The snapshot kept and how many series each family lost."""
    if len(snapshot) <= max_series:
        return snapshot, {}
    queues = {fam.name: sorted(snapshot.series[fam.name]) for fam in FAMILIES
              if snapshot.series.get(fam.name)}
    kept = Snapshot()
    taken = dict.fromkeys(queues, 0)
    spare = max_series
    open_ = list(queues)
    while open_:
        still = []
        for name in open_:
            keys = queues[name]
            value = snapshot.series[name][keys[taken[name]]]
            if cost(value) > spare:
                continue  # this family stops here: its next series does not fit
            kept.series.setdefault(name, {})[keys[taken[name]]] = value
            spare -= cost(value)
            taken[name] += 1
            if taken[name] < len(keys):
                still.append(name)
        open_ = still
    dropped = {name: len(keys) - taken[name] for name, keys in queues.items()
               if taken[name] < len(keys)}
    return kept, dropped
