"""The chain fast path (`traceroute.journeys.chains`) answers as `reconstruct` does.

`journeys_of_columns` with the chains gives the rows `reconstruct` alone gives, in the same
order, replies linked alike: on the benchmark's generated estates (random calls dropped,
rows shuffled, several queue-manager counts), on the streaming test's workloads (failed
puts, dead letters, replies inside and across keys), on the simulator's traced estate, and
on those inputs damaged the ways a table can be: keys and ids that disagree, lower-case
hex, browses, callbacks, failed gets, MQOPEN handles, repeated call indexes, times missing
or running backwards, rows of one message repeated. Also: the common chains are taken by
the fast path (not all handed back), and rows the fast path does not read still refuse as
`reconstruct`'s reading refuses them.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcf.mqmd import unpack
from tests.traceroute.journeys.test_journeys_pipeline import _traced
from tests.traceroute.journeys.test_journeys_spill import _message, _workload
from tests.traceroute.journeys.test_journeys_walk_order import GENERATE, MESSAGES
from traceroute.journeys import reconstruct
from traceroute.journeys.chains import chain_journeys
from traceroute.journeys.parse import parse_activity_trace
from traceroute.journeys.rows import (
    CALL_COLUMNS,
    call_rows,
    journeys_of_columns,
    traces_of_columns,
)

NAMES = [name for name, _ in CALL_COLUMNS]


def _cols(rows: list[dict]) -> dict[str, list]:
    return {n: [r.get(n) for r in rows] for n in NAMES}


def _whole(result) -> tuple:
    """Everything a Reconstruction says, journeys field by field."""
    return ([(j.to_dict(), j.gap_qmgrs, j.untraced_verdict, j.hops) for j in result.journeys],
            result.calls, result.duplicates, result.holes, result.untraceable,
            result.notes(), [id(c) for c in result.subscriptions])


def _same_typed(traces: list, sequences: bool = True) -> None:
    """reconstruct with its chain path gives what its walk alone gives (or refuses alike)."""
    try:
        want = _whole(reconstruct(traces, sequences=sequences, chains=False))
    except (ValueError, TypeError) as exc:  # a SeqNumber that is no number
        with pytest.raises(type(exc)):
            reconstruct(traces, sequences=sequences)
        return
    assert _whole(reconstruct(traces, sequences=sequences)) == want


def _same(rows: list[dict]) -> None:
    cols = _cols(rows)
    try:
        traces = traces_of_columns(cols)
    except (ValueError, TypeError):
        traces = None
    if traces is not None:
        _same_typed(traces, sequences=False)
        _same_typed(traces)
    try:
        want = journeys_of_columns(cols, chains=False)
    except (ValueError, TypeError) as exc:  # what reconstruct refuses (bad hex, no order)
        with pytest.raises(type(exc)):
            journeys_of_columns(cols)
        return
    assert journeys_of_columns(cols) == want


KINDS = 18


def _damage(rows: list[dict], rng: random.Random, share: float,
            kinds: tuple[int, ...] = tuple(range(KINDS))) -> list[dict]:
    """Rows with some values changed the ways a table may hold them."""
    out = []
    for r in rows:
        r = dict(r)
        if rng.random() < share:
            what = rng.choice(kinds)
            if what == 0 and r["journey_key"]:
                r["journey_key"] = r["journey_key"].lower()
            elif what == 1 and r["msg_id"]:
                r["msg_id"] = r["msg_id"][:-2] + "00"
            elif what == 2:
                r["get_options"] = 16  # MQGMO_BROWSE_FIRST
            elif what == 3:
                r["operation_id"], r["call_type"] = 21, rng.choice((None, 1, 2))  # CALLBACK
            elif what == 4:
                r["comp_code"], r["reason"] = 2, 2033
            elif what == 5:
                r["operation_id"], r["hobj"] = 6, rng.choice((None, 1))  # MQOPEN
            elif what == 6:
                r["call_index"] = rng.choice((0, 0, 0, None))
            elif what == 7:
                r["high_res_time"] = rng.choice((None, 0, 5))
            elif what == 8:
                out.append(dict(r, call_index=(r["call_index"] or 0) + 1000))  # a repeat
            elif what == 9:
                r["format"] = "MQDEAD"
            elif what == 10:
                r["correl_id"] = rng.choice(("00" * 24, r["journey_key"], None))
            elif what == 11 and r["high_res_time"]:
                r["high_res_time"] -= rng.choice((1, 10**6))  # a clock behind
            elif what == 13:
                r["seq_number"] = None
            elif what == 12:
                r["queue_manager"] = rng.choice(("QM000", "QM001", "QM1", "QM2"))
            # a row whose connection columns disagree with its trace message's first row
            # (reconstruct takes the message's connection from that row)
            elif what == 15:
                r["environment"], r["channel_type"] = rng.choice(((0, None), (1, None),
                                                                   (None, 0), (None, 3)))
            elif what == 16:
                r["appl_name"] = rng.choice(("amqsput", "runmqchl", None))
            elif what == 17:
                r["channel_name"] = rng.choice(("QM000.TO.QM001", "SVRCONN.A", None))
            else:
                r["msg_type"] = 2
        out.append(r)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(20, 1500), st.integers(0, 10**6), st.floats(0.0, 0.3),
       st.integers(1, 12), st.floats(0.0, 0.05))
def test_generated_estates(n: int, seed: int, drop: float, qmgrs: int, damage: float) -> None:
    rng = random.Random(seed)
    rows = [r for r in GENERATE(n, qmgrs, seed) if rng.random() >= drop]
    rng.shuffle(rows)
    _same(_damage(rows, rng, damage))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_message, min_size=1, max_size=40), st.integers(0, 10**6),
       st.floats(0.0, 0.2))
def test_workloads(messages, seed: int, damage: float) -> None:
    rng = random.Random(seed)
    rows = _workload(messages)
    if seed % 2:
        rng.shuffle(rows)
    _same(_damage(rows, rng, damage))


@pytest.mark.parametrize("kind", range(KINDS))
def test_each_damage(kind: int) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        _same(_damage(list(GENERATE(600, 3 + seed, seed)), rng, 0.1, (kind,)))
        messages = [{"hops": rng.randrange(3), "fate": rng.choice(
            ("consumed", "on_queue", "xmitq", "transit", "dead", "failed")),
            "reply": rng.choice((None, "reply", "datagram", "stranger")),
            "self_correl": rng.random() < 0.3, "consumer": rng.randrange(3)}
            for _ in range(60)]
        _same(_damage(_workload(messages), rng, 0.1, (kind,)))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, len(MESSAGES) - 1), max_size=30), st.integers(0, 10**6))
def test_scenario_messages_reconstruct(picks: list[int], seed: int) -> None:
    traces = [parse_activity_trace(unpack(MESSAGES[i][0]), MESSAGES[i][1]) for i in picks]
    random.Random(seed).shuffle(traces)
    _same_typed(traces)


def test_the_common_chains_are_taken_here() -> None:
    rows = list(GENERATE(3000, 12, 7))
    found = chain_journeys(_cols(rows))
    assert found is not None and not found.slow and len(found.chains) > 500


def test_a_key_that_is_not_its_ids_leaves_every_key_to_reconstruct() -> None:
    rows = list(GENERATE(300, 5, 3))
    rows[5] = dict(rows[5], journey_key=rows[40]["journey_key"])
    assert chain_journeys(_cols(rows)) is None
    _same(rows)


@pytest.mark.parametrize("column", ["msg_id", "correl_id", "conn_id", "xmitq_msg_id"])
def test_bad_hex_refuses_as_reconstruct_does(column: str) -> None:
    rows = list(GENERATE(300, 5, 3))
    target = next(r for r in rows if r["xmitq_msg_id"]) if column != "correl_id" else rows[0]
    bad = dict(target, **{column: "NOT HEX"})
    rows[rows.index(target)] = bad
    cols = _cols(rows)
    with pytest.raises(ValueError):
        journeys_of_columns(cols, chains=False)
    with pytest.raises(ValueError):
        journeys_of_columns(cols)


def test_the_simulators_traced_estate(tmp_path) -> None:
    _, messages = _traced(tmp_path)
    _same_typed([parse_activity_trace(md, data) for md, data in messages])
    rows = [r for md, data in messages
            for r in call_rows(parse_activity_trace(md, data), source="s")
            if r["journey_key"] is not None]
    _same(rows)
    random.Random(1).shuffle(rows)
    _same(rows)
