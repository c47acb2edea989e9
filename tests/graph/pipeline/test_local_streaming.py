"""run_local groups records in a bounded window and spills the rest to sorted runs on disk:
the answers are those of an unbounded window, however small the window."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyarrow")

from graph.pipeline import local
from graph.pipeline.local import run_local
from pcf import dmpmqmsg
from traceroute.sim.corpus import corpus, corrupt


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Every verdict, each message's reports spread over three dumps (so a message comes back
    after it was spilled), shuffled, plus damaged reports and a raw file."""
    folder = tmp_path_factory.mktemp("stream")
    items = corpus(30, seed=7)
    rng = random.Random(3)
    shuffled = items[:]
    rng.shuffle(shuffled)
    for n in range(3):
        part = shuffled[n::3]
        (folder / f"activity{n}.dmp").write_text(
            dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in part]),
            encoding="latin-1")
    bad = [dmpmqmsg.DumpedMessage(c.md, corrupt(c.data, rng)) for c in items[:4]]
    (folder / "damaged.dmp").write_text(dmpmqmsg.write(bad), encoding="latin-1")
    (folder / "raw.bin").write_bytes(items[5].data)
    return folder


def _routes(result):
    return sorted(result.routes, key=lambda r: r["correl_id"])


def _hops(result):
    return sorted(result.hops, key=lambda r: (r["correl_id"], r["branch"], r["seq"]))


def _rejects(result):
    return sorted((r["source"], r["position"], r["error"]) for r in result.rejects)


@pytest.mark.parametrize("window", [1, 2, 7, 50, 333])
def test_any_window_gives_the_unbounded_answers(folder, window, monkeypatch):
    whole = run_local([str(folder)], window=10**9)
    runs: list[int] = []
    real = local._Spill.write

    def counting(self, groups):
        runs.append(sum(len(v) for v in groups.values()))
        return real(self, groups)

    monkeypatch.setattr(local._Spill, "write", counting)
    small = run_local([str(folder)], window=window)
    assert runs and max(runs) <= window + 1  # it spilled, never more than the window at once
    assert len(whole.routes) > 100 and whole.rejects
    assert small.messages == whole.messages
    assert _routes(small) == _routes(whole)
    assert _hops(small) == _hops(whole)
    assert _rejects(small) == _rejects(whole)


def test_no_spill_keeps_first_seen_order(folder, monkeypatch):
    """Below the window nothing touches the disk and routes come in the order first seen."""
    def never(self, groups):
        raise AssertionError("spilled")

    monkeypatch.setattr(local._Spill, "write", never)
    result = run_local([str(folder)], window=10**9)
    assert len(result.routes) == len({r["correl_id"] for r in result.routes}) > 100


def test_spill_folder_removed(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    run_local([str(folder)], window=5)
    assert list(tmp_path.iterdir()) == []


def test_messages_that_come_back_are_built_again(folder, monkeypatch):
    """With a small window, messages come back after they left it: those (only) are parsed
    again from the spilled runs, and their early routes replaced."""
    again: list[int] = []
    real = local._reparse

    def counting(key, spilled):
        again.append(len(spilled))
        return real(key, spilled)

    monkeypatch.setattr(local, "_reparse", counting)
    small = run_local([str(folder)], window=20)
    whole = run_local([str(folder)], window=10**9)
    assert again and len(again) < len(whole.routes)
    assert _routes(small) == _routes(whole) and _hops(small) == _hops(whole)
    assert small.route_count == whole.route_count
    assert _rejects(small) == _rejects(whole)


def test_a_route_failure_built_early_and_again_is_one_reject(folder, monkeypatch):
    """A message whose route cannot be built, evicted early and then coming back, is
    rejected once (the early reject is dropped with its early route)."""
    import traceroute.routes.ordering as ordering

    real = local.route_of
    victims: set[bytes] = set()

    def failing(key, records):
        if not victims:
            victims.add(key)
        if key in victims:
            raise ValueError("boom")
        return real(key, records)

    monkeypatch.setattr(local, "route_of", failing)
    assert ordering.route_of is not failing
    small = run_local([str(folder)], window=3)
    victims_small = set(victims)
    victims.clear()
    whole = run_local([str(folder)], window=10**9)
    booms = [r for r in small.rejects if "boom" in r["error"]]
    assert len(booms) == len(victims_small) == 1
    assert len([r for r in whole.rejects if "boom" in r["error"]]) == 1
