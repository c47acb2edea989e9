"""reconstruct on random workloads: scenario messages in any order with repeats, and the
benchmark's generated estate with random calls dropped (gaps, untraced puts, in-transit ends):
every call counted, every journey one of the messages' MsgIds, and with nothing dropped every
generated message exactly one journey."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pcf.mqmd import unpack
from tests.traceroute.journeys.scenarios import app_get, app_put, mca_get, mca_put, qm1_to_qm2
from traceroute.journeys import parse_activity_trace, reconstruct
from traceroute.journeys.rows import CALL_COLUMNS, traces_of_columns

MESSAGES = [*qm1_to_qm2(), app_put("QM1", "LQ", cc=2, reason=2085),
            mca_put("QM2", "DLQ", "QM1.TO.QM2", dead=True), *app_get("QM1", "LQ", split=True),
            mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "T")]

_BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_journeys.py"


def _generate():
    spec = importlib.util.spec_from_file_location("_bench_journeys", _BENCH)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.generate


GENERATE = _generate()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, len(MESSAGES) - 1), max_size=30), st.integers(0, 10**6))
def test_scenario_messages_any_order_any_repeats(picks: list[int], seed: int) -> None:
    traces = [parse_activity_trace(unpack(MESSAGES[i][0]), MESSAGES[i][1]) for i in picks]
    random.Random(seed).shuffle(traces)
    result = reconstruct(traces)
    ids = {i for t in traces for c in t.calls for i in (c.msg_id, c.xmitq_msg_id) if i}
    ids.add(bytes(24))  # a failed put has no MsgId: its journey shows MQMI_NONE
    assert {bytes.fromhex(j.to_dict()["msg_id"]) for j in result.journeys} <= ids
    assert result.calls == sum(len(t.calls) for t in traces) or result.duplicates


@settings(max_examples=40, deadline=None)
@given(st.integers(50, 3000), st.integers(0, 10**6), st.floats(0.0, 0.3),
       st.integers(2, 12), st.booleans())
def test_generated_estate_with_calls_missing(n: int, seed: int, drop: float, qmgrs: int,
                                             sequences: bool) -> None:
    rng = random.Random(seed)
    rows = [r for r in GENERATE(n, qmgrs, seed) if rng.random() >= drop]
    rng.shuffle(rows)
    cols = {c: [r.get(c) for r in rows] for c, _ in CALL_COLUMNS}
    result = reconstruct(traces_of_columns(cols), sequences=sequences)
    assert result.calls == len(rows)
    keys = {r["journey_key"] for r in rows}
    assert {j.to_dict()["msg_id"] for j in result.journeys} <= keys
    if drop == 0.0:
        assert len(result.journeys) == len(keys)


def test_generated_estate_one_journey_per_message() -> None:
    for seed in range(3):
        rows = list(GENERATE(2000, 5, seed))
        random.Random(seed).shuffle(rows)
        cols = {c: [r.get(c) for r in rows] for c, _ in CALL_COLUMNS}
        result = reconstruct(traces_of_columns(cols))
        assert result.calls == len(rows) and not result.duplicates
        assert len(result.journeys) == len({r["journey_key"] for r in rows})
