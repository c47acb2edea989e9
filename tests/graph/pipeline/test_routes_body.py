"""The routes stage's column-wise body gives exactly the rows the row-by-row body gave.

No Spark: the mapInArrow bodies run on Arrow batches here. The reference
(tests/support/routes_reference.py) is the body before it went column-wise; both are fed
classify's operation rows of the benchmark corpus, sorted by correl_id as the stage's
shuffle leaves them, and hypothesis varies the rest: the order of a message's rows, where
the batches are cut, messages whose route cannot be built, fan-outs (branches), and the
columns records are grouped by (absent or empty source, position, report MsgId, counters).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.pipeline import reports, rows
from graph.pipeline.classify import OP, classify_batches
from graph.pipeline.inputs import RAW_COLUMNS
from graph.pipeline.rows import OPERATION_COLUMNS, OPERATION_NAMES
from graph.pipeline.schema import arrow_schema
from tests.support import routes_reference as ref

pa = pytest.importorskip("pyarrow")


def _operation_rows(count: int, seed: int) -> list[dict]:
    """classify's operation rows of the corpus, sorted by correl_id (stable)."""
    from traceroute.sim.corpus import corpus

    raw = [("corpus.dmp", n, c.md.pack(), c.data, None)
           for n, c in enumerate(corpus(count, seed=seed))]
    schema = arrow_schema(RAW_COLUMNS)
    table = pa.Table.from_arrays(
        [pa.array(col, f.type) for col, f in zip(zip(*raw, strict=True), schema, strict=True)],
        schema=schema)
    out = [r for b in classify_batches(iter(table.to_batches(max_chunksize=500)))
           for r in b.to_pylist() if r["kind"] == OP]
    return sorted(({k: r[k] for k in OPERATION_NAMES} for r in out),
                  key=lambda r: r["correl_id"])


@pytest.fixture(scope="module")
def corpus_rows() -> list[dict]:
    return _operation_rows(200, seed=1)


@pytest.fixture(scope="module")
def small_rows() -> list[dict]:
    return _operation_rows(3, seed=5)


def _batches(ops: list[dict], cuts: list[int]) -> list:
    batch = pa.RecordBatch.from_pylist(ops, schema=arrow_schema(OPERATION_COLUMNS))
    edges = [0, *sorted(cuts), len(ops)]
    return [batch.slice(a, b - a) for a, b in pairwise(edges)]


def _failing(keys: set[str]):
    real = rows.route_of

    def route_of(key: bytes, records):
        if key.hex() in keys:
            raise ValueError(f"no route for {key.hex()[:8]}")
        return real(key, records)
    return route_of


@contextmanager
def _routes_fail(keys: set[str]):
    """route_of raises for these messages, in both bodies (the Python ordering's: the
    compiled chains, tests/graph/pipeline/test_compiled_routes.py, are set aside)."""
    from graph.pipeline import compiled

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled, "_C", None)
        failing = _failing(keys)
        mp.setattr(rows, "route_of", failing)
        mp.setattr(ref, "route_of", failing)
        yield


def _both(batches: list) -> tuple[list[dict], list[dict]]:
    new = [r for b in reports.routes_of_batches(iter(batches)) for r in b.to_pylist()]
    old = [r for b in ref.routes_of_batches(iter(batches)) for r in b.to_pylist()]
    return new, old


def test_the_corpus_gives_the_same_rows(corpus_rows):
    new, old = _both(_batches(corpus_rows, list(range(0, len(corpus_rows), 2000))))
    assert len(new) == len({r["correl_id"] for r in corpus_rows}) > 1000
    assert new == old
    assert sum(len(r["hop_list"]) for r in new) > len(new)
    assert {r["verdict"] for r in new} >= {"delivered", "waiting_on_xmitq"}


def test_the_columns_the_stage_ships_are_enough(corpus_rows):
    """The Spark stage shuffles only ROUTES_READ (no operation MsgIds): the same rows."""
    batches = _batches(corpus_rows, [1000, 2500])
    narrow = [pa.RecordBatch.from_arrays([b.column(n) for n in reports.ROUTES_READ],
                                         names=list(reports.ROUTES_READ)) for b in batches]
    assert "msg_id" not in reports.ROUTES_READ
    assert [r for b in reports.routes_of_batches(iter(narrow)) for r in b.to_pylist()] == \
        _both(batches)[1]


def test_the_batch_schema_is_the_stage_output(corpus_rows):
    out = list(reports.routes_of_batches(iter(_batches(corpus_rows[:40], []))))
    assert len(out) == 2  # the messages before the last one, then the one carried over
    assert all(b.schema == reports._route_arrow_schema() for b in out)


def test_failures_give_the_same_reject_rows(corpus_rows):
    keys = sorted({r["correl_id"] for r in corpus_rows})
    failing = set(keys[::7])
    with _routes_fail(failing):
        new, old = _both(_batches(corpus_rows, [len(corpus_rows) // 3]))
    assert new == old
    failed = [r for r in new if r["failed_error"] is not None]
    assert {r["correl_id"] for r in failed} == failing
    assert all(r["hop_list"] == [] and r["verdict"] is None for r in failed)


def test_every_cut_of_two_batches(small_rows):
    whole, _ = _both(_batches(small_rows, []))
    for cut in range(len(small_rows) + 1):
        new, old = _both(_batches(small_rows, [cut]))
        assert new == old == whole, cut


def _messages(ops: list[dict]) -> list[list[dict]]:
    groups: dict[str, list[dict]] = {}
    for r in ops:
        groups.setdefault(r["correl_id"], []).append(r)
    return list(groups.values())


def _fork(message: list[dict], row: dict, k: int) -> None:
    """Add a copy of `row`'s record in another queue manager: its activities are then a
    second child of what comes before them (a fan-out, so branches)."""
    def record(r: dict) -> tuple:
        return r["source"], r["position"], r["report_msg_id"]

    message += [{**r, "position": (r["position"] or 0) + 10_000 * k, "report_msg_id": f"f{k}",
                 "queue_manager": f"QMX{k}"} for r in list(message) if record(r) == record(row)]


def test_fan_outs_give_the_same_rows(corpus_rows):
    messages = _messages(corpus_rows)
    for n, m in enumerate(messages[::3]):
        _fork(m, m[-1], 1)
        if n % 2:
            _fork(m, m[0], 2)  # another level forks too: branches within branches
    ops = [r for m in messages for r in m]
    new, old = _both(_batches(ops, [len(ops) // 2]))
    assert new == old
    assert sum(1 for r in new if r["branches"]) > 100
    assert max(h["branch"] for r in new for h in r["hop_list"]) >= 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.data())
def test_varied_inputs_give_the_same_rows(small_rows, data):
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    messages = [list(m) for m in _messages(small_rows)]
    messages = data.draw(st.permutations(messages), label="message order")
    forks = data.draw(st.lists(st.tuples(st.integers(0, len(messages) - 1),
                                         st.integers(0, 99)), max_size=4), label="forks")
    for k, (m, r) in enumerate(forks, start=1):
        _fork(messages[m], messages[m][r % len(messages[m])], k)
    for m in messages:
        rng.shuffle(m)  # the shuffle sorts by correl_id only
    ops = [dict(r) for m in messages for r in m]
    blanks = data.draw(st.lists(st.tuples(
        st.integers(0, len(ops) - 1),
        st.sampled_from(["source", "position", "report_msg_id", "recorded",
                         "final_recorded", "appl_name", "date", "embedded_msg_id"]),
        st.sampled_from([None, "", 0])), max_size=8), label="blanks")
    for i, column, value in blanks:
        kind = dict(OPERATION_COLUMNS)[column]
        ops[i][column] = value if value is None or (kind == "string") == (value == "") \
            else None
    cuts = data.draw(st.lists(st.integers(0, len(ops)), max_size=6), label="cuts")
    keys = sorted({r["correl_id"] for r in ops})
    failing = set(data.draw(st.lists(st.sampled_from(keys), max_size=3), label="failing"))
    with _routes_fail(failing):
        new, old = _both(_batches(ops, cuts))
    assert new == old
    assert sorted(r["correl_id"] for r in new) == keys


def test_dict_rows_give_the_same_routes(corpus_rows):
    """routes_from_operation_rows (the report's path) through the columns: the same Routes."""
    mixed = list(corpus_rows[:3000])
    random.Random(2).shuffle(mixed)
    got = list(rows.routes_from_operation_rows(mixed))
    want = [route for _, route in ref.routes_or_failures(mixed)]
    assert got == want and len(got) > 300
    assert [rows.route_row(r) for r in got] == [ref.route_row(r) for r in want]
    assert [rows.hop_rows(r) for r in got] == [list(ref.hop_rows(r)) for r in want]
    emb = [op.embedded_md for r in got for a in r.activities for op in a.operations]
    assert any(md is not None and md.msg_id != bytes(24) for md in emb)
