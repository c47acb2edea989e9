"""The seed's offload rules and sizing examples (spec/events.md §6)."""

from __future__ import annotations

import pytest

from traceroute.events.offload import (
    KB,
    OffloadRules,
    backlog_bytes,
    backlog_percent,
    offload_all_limit,
    parse_size,
    show_size,
    suggest_rules,
)

GB, MB = KB**3, KB**2


def test_default_rules_table() -> None:
    r = OffloadRules()
    assert r.mqsc() == ("OFFLOAD(SMDS) OFFLD1TH(70) OFFLD1SZ(32K) OFFLD2TH(80) OFFLD2SZ(4K) "
                        "OFFLD3TH(90) OFFLD3SZ(0K)")
    # > 70 % full: messages > 32 KB; > 80 %: > 4 KB; > 90 %: all
    assert not r.offloaded(33 * KB, 70) and r.offloaded(33 * KB, 70.1)
    assert r.offloaded(32 * KB + 1, 71) and not r.offloaded(32 * KB, 71)
    assert not r.offloaded(5 * KB, 80) and r.offloaded(5 * KB, 81)
    assert not r.offloaded(100, 90) and r.offloaded(1, 91)
    assert [r.rule_applied(s, 95) for s in (1, 5 * KB, 40 * KB, 64 * KB)] == [3, 2, 1, 0]


def test_large_messages_always_offloaded_and_64k_switches_a_rule_off() -> None:
    off = OffloadRules(((70, 64 * KB), (80, 64 * KB), (90, 64 * KB)))
    assert off.offloaded(63 * KB + 769, 0) and not off.offloaded(63 * KB + 768, 99)
    assert not off.offloaded(10 * KB, 99)


def test_offloaded_message_keeps_0_75_kb_in_the_cf() -> None:
    assert OffloadRules().cf_bytes(1 * MB, 10) == 768
    assert OffloadRules().cf_bytes(1 * KB, 10) == 1 * KB + 768


def test_seed_sizing_1m_backlog_is_0_75_gb_and_a_10_gb_structure_needs_92_or_lower() -> None:
    million = 1 << 20  # MQ's 1M
    assert backlog_bytes(million) == 768 * MB and show_size(backlog_bytes(million)) == "768 MB"
    assert backlog_bytes(million) / GB == 0.75
    assert offload_all_limit(million, 10 * GB) == pytest.approx(92.5)  # "92% or lower"
    # aim to use no more than 90 % of the structure -> "better set around 80%"
    assert suggest_rules(million, 10 * GB, usable=90).rules[2] == (80, 0)


def test_seed_sizing_4_gb_structure_for_1m_messages_gives_offld3th_80() -> None:
    million = 1 << 20
    assert backlog_percent(million, 4 * GB) == 18.75
    rules = suggest_rules(million, 4 * GB)
    assert rules.rules[2] == (80, 0)  # OFFLD3TH(80) OFFLD3SZ(0K)
    assert rules.rules[0][0] < rules.rules[1][0] < 80  # "the other parameters adjusted"


def test_seed_offld1th_0_offloads_every_message_over_32k() -> None:
    r = OffloadRules(((0, 32 * KB), (80, 4 * KB), (90, 0)))  # OFFLD1TH(0) OFFLD1SZ(32K)
    assert r.offloaded(33 * KB, 0.5) and not r.offloaded(16 * KB, 50)


def test_rule_2_size_separates_16k_from_6k() -> None:
    r = OffloadRules(((70, 32 * KB), (50, 8 * KB), (90, 0)))
    assert r.offloaded(16 * KB, 60) and not r.offloaded(6 * KB, 60)


def test_sizes_and_mqsc_attributes() -> None:
    assert parse_size("32K") == 32768 and parse_size("4G") == 4 * GB and parse_size("0K") == 0
    with pytest.raises(ValueError):
        parse_size("lots")
    r = OffloadRules.from_mqsc({"OFFLOAD": "DB2", "OFFLD3TH": "80", "OFFLD3SZ": "0K"})
    assert r.offload == "DB2" and r.rules == ((70, 32 * KB), (80, 4 * KB), (80, 0))
