"""What one analyze run found and where it wrote it: the same for Spark's job and the one
process path (`graph.pipeline.job`, `graph.pipeline.single`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Summary:
    """Counts from one run, and where the tables were written."""

    messages: int
    operations: int
    rejected: int
    routes: int
    verdicts: dict[str, int]
    out: str
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (URI, error)
    stats: dict[str, int] = field(default_factory=dict)  # accounting/statistics rows by table
    journeys: dict[str, int] = field(default_factory=dict)  # activity-trace journeys by verdict
    smf: dict[str, int] = field(default_factory=dict)  # z/OS SMF rows by structure (smf/)

    def table(self) -> str:
        """A small text table for the end of a run."""
        lines = [f"{'verdict':<24}{'routes':>10}"]
        lines += [f"{v:<24}{n:>10}" for v, n in sorted(self.verdicts.items())]
        lines.append(f"{'(rejected messages)':<24}{self.rejected:>10}")
        return "\n".join(lines)

    def written(self) -> str:
        """The line naming the tables written, with the row counts a run knows."""
        journeys = sum(self.journeys.values())
        by_verdict = ", ".join(f"{n} {v}" for v, n in sorted(self.journeys.items()))
        return (f"tables written to {self.out}: operations, rejects, routes, hops, "
                + ", ".join(f"{t} ({n} rows)" for t, n in self.stats.items())
                + f", calls, journeys ({journeys} rows" + (f": {by_verdict})" if by_verdict
                                                           else ")")
                + ("; smf/: " + ", ".join(f"{t.lower()} ({n} rows)"
                                          for t, n in self.smf.items()) if self.smf else ""))
