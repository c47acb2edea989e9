"""z/OS shared-queue offload rules (CFSTRUCT OFFLOAD, OFFLDnTH/OFFLDnSZ) and CF sizing.

The seed (spec/events.md §6): message data is offloaded to SMDS or Db2 when the structure
is more than OFFLDnTH % full and the message is larger than OFFLDnSZ, for any of the three
rules; messages over 63.75 KB always are; OFFLDnSZ(64K) switches a rule off. Each offloaded
message still needs about 0.75 KB of CF storage, so a backlog of N messages needs N x 0.75 KB
(2^20 messages -> 768 MB, 18.75 % of a 4 GB structure: OFFLD3TH(80) OFFLD3SZ(0K)).
Pure arithmetic.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

KB = 1024
#: Messages larger than this are always offloaded (63.75 KB).
ALWAYS_OFFLOADED = 63 * KB + 768
#: CF storage an offloaded message still needs (0.75 KB).
OFFLOADED_ENTRY = 768
#: OFFLDnSZ(64K) means the rule is not in effect.
RULE_OFF = 64 * KB
#: The defaults: OFFLD1TH(70) OFFLD1SZ(32K), OFFLD2TH(80) OFFLD2SZ(4K), OFFLD3TH(90) OFFLD3SZ(0K).
DEFAULT_RULES: tuple[tuple[int, int], ...] = ((70, 32 * KB), (80, 4 * KB), (90, 0))

_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)B?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """'32K' -> 32768, '4G' -> 4 GiB, '1M' -> 1048576 (binary units, as MQSC's K); bytes."""
    m = _SIZE.match(text)
    shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text):,} characters)"
    if not m:
        raise ValueError(f"{shown!r} is not a size (like 0K, 4K, 32K, 4G)")
    power = " KMGT".index(m.group(2).upper() or " ")
    value = float(m.group(1)) * KB ** power if len(m.group(1)) <= 24 else math.inf
    if not value < 2**63:
        raise ValueError(f"{shown!r}: too large (a size is under 8 EB)")
    return round(value)


def show_size(n: float) -> str:
    """Bytes in the largest binary unit that keeps it short ('768 MB', '0.75 KB')."""
    for unit, power in (("TB", 4), ("GB", 3), ("MB", 2), ("KB", 1)):
        if n >= KB ** power or (power == 1 and n > 0):
            value = n / KB ** power
            return f"{value:.4g} {unit}"
    return f"{n:g} B"


@dataclass(frozen=True, slots=True)
class OffloadRules:
    """A CF structure's offload settings: OFFLOAD(SMDS|DB2) and three (OFFLDnTH %, OFFLDnSZ)."""

    rules: tuple[tuple[int, int], ...] = DEFAULT_RULES
    offload: str = "SMDS"

    @classmethod
    def from_mqsc(cls, attrs: dict[str, str]) -> OffloadRules:
        """From DEFINE CFSTRUCT attributes (OFFLOAD, OFFLD1TH ... OFFLD3SZ; defaults else)."""
        rules = []
        for n, (th, sz) in enumerate(DEFAULT_RULES, 1):
            th_text, sz_text = attrs.get(f"OFFLD{n}TH"), attrs.get(f"OFFLD{n}SZ")
            rules.append((int(th_text) if th_text else th,
                          parse_size(sz_text) if sz_text else sz))
        return cls(tuple(rules), attrs.get("OFFLOAD", "SMDS").upper())

    def offloaded(self, size: int, usage: float) -> bool:
        """Whether a message of `size` bytes is offloaded when the structure is `usage` % full."""
        if size > ALWAYS_OFFLOADED:
            return True
        return any(sz < RULE_OFF and usage > th and size > sz for th, sz in self.rules)

    def rule_applied(self, size: int, usage: float) -> int | None:
        """Which rule (1-3) offloads the message, 0 for 'always' (> 63.75 KB), None: kept."""
        if size > ALWAYS_OFFLOADED:
            return 0
        for n, (th, sz) in enumerate(self.rules, 1):
            if sz < RULE_OFF and usage > th and size > sz:
                return n
        return None

    def cf_bytes(self, size: int, usage: float) -> int:
        """CF storage of one message: 0.75 KB when offloaded, else its data + 0.75 KB [derived]."""
        return OFFLOADED_ENTRY if self.offloaded(size, usage) else size + OFFLOADED_ENTRY

    def mqsc(self) -> str:
        """The rules as DEFINE CFSTRUCT keywords."""
        parts = [f"OFFLOAD({self.offload})"]
        for n, (th, sz) in enumerate(self.rules, 1):
            parts.append(f"OFFLD{n}TH({th}) OFFLD{n}SZ({sz // KB}K)")
        return " ".join(parts)


def backlog_bytes(messages: int) -> int:
    """CF storage a backlog of offloaded messages needs (0.75 KB each)."""
    return messages * OFFLOADED_ENTRY


def backlog_percent(messages: int, structure: int) -> float:
    """That storage as a percentage of the structure's size."""
    return 100.0 * backlog_bytes(messages) / structure


def offload_all_limit(messages: int, structure: int, usable: float = 100.0) -> float:
    """The highest offload-all threshold (OFFLD3TH) that still leaves room for the backlog."""
    return usable - backlog_percent(messages, structure)


def suggest_rules(messages: int, structure: int, usable: float = 100.0,
                  base: OffloadRules | None = None) -> OffloadRules:
    """Rules reserving room for `messages`: OFFLD3TH the limit rounded down to tens, the
    other thresholds kept below it, ten points apart [derived]."""
    base = base or OffloadRules()
    limit = offload_all_limit(messages, structure, usable)
    th3 = max(0, min(base.rules[2][0], math.floor(limit / 10) * 10))
    th2 = max(0, min(base.rules[1][0], th3 - 10))
    th1 = max(0, min(base.rules[0][0], th2 - 10))
    return OffloadRules(((th1, base.rules[0][1]), (th2, base.rules[1][1]), (th3, 0)),
                        base.offload)
