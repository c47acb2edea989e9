"""The Spark journeys stage: chunked reconstruction per partition and the reply-link window.

`journey_batches` gets a partition's calls sorted by journey key and reconstructs them a
chunk at a time, cut only where the key changes: whatever the chunk and Arrow batch sizes,
the rows (once replies are linked) are those of one reconstruction of all the calls.
`build_journeys` links replies whose requests were reconstructed in other partitions (checked
to be so with spark_partition_id) by a window over link keys, as `link_reply_rows` does.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")

from graph.pipeline.journeys import TABLE_COLUMNS, UNREAD_COLUMNS, journey_batches  # noqa: E402
from graph.pipeline.schema import arrow_schema  # noqa: E402
from tests.traceroute.journeys.test_journeys_spill import _message, _workload  # noqa: E402
from traceroute.journeys.rows import (  # noqa: E402
    CALL_COLUMNS,
    JOURNEY_COLUMNS,
    journeys_of_rows,
    link_reply_rows,
)

TABLE = [name for name, _ in TABLE_COLUMNS]
READ = [(n, t) for n, t in CALL_COLUMNS if n not in UNREAD_COLUMNS]


def _bag(rows: list[dict], names: list[str]) -> Counter:
    return Counter(tuple(r[k] for k in names) for r in rows)


def _expected(rows: list[dict]) -> list[dict]:
    journeys = journeys_of_rows(rows)
    link_reply_rows(journeys)
    return journeys


def _sorted_batches(rows: list[dict], size: int) -> list:
    """The keyed rows sorted by journey key (as the partition's sort leaves them), without the
    unread columns, in Arrow batches of `size` rows."""
    keyed = sorted((r for r in rows if r["journey_key"] is not None),
                   key=lambda r: r["journey_key"])
    schema = arrow_schema(READ)
    return [pa.RecordBatch.from_pylist([{n: r[n] for n, _ in READ}
                                        for r in keyed[i:i + size]], schema=schema)
            for i in range(0, len(keyed), size)]


def _chunked(rows: list[dict], size: int, chunk: int) -> tuple[list[dict], int]:
    out = list(journey_batches(iter(_sorted_batches(rows, size)), chunk=chunk))
    for batch in out:
        assert batch.schema == arrow_schema(JOURNEY_COLUMNS)
    got = [r for batch in out for r in batch.to_pylist()]
    link_reply_rows(got)
    return got, len(out)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_message, min_size=1, max_size=40), st.integers(1, 30), st.integers(1, 60))
def test_chunks_give_the_rows_of_one_reconstruction(messages, size, chunk) -> None:
    rows = _workload(messages)
    got, _ = _chunked(rows, size, chunk)
    assert _bag(got, TABLE) == _bag(_expected(rows), TABLE)


def test_chunks_are_cut_between_keys_only() -> None:
    """Chunks of 1 call over batches of 3: a journey of six calls (two hops: put, MCA get,
    MCA put twice, consumer get) still reconstructed whole, each in a chunk of its own, the
    one-call replies that arrive in one batch together."""
    messages = [{"hops": 2, "fate": "consumed", "reply": "reply", "self_correl": False,
                 "consumer": 0}] * 6
    rows = _workload(messages)
    got, chunks = _chunked(rows, 3, 1)
    expected = _expected(rows)
    assert _bag(got, TABLE) == _bag(expected, TABLE)
    assert len(messages) <= chunks < len(expected)  # several keys to a batch's chunk
    assert {r["steps"] for r in got if r["reply_to"] is None} == {6}


def test_no_calls_no_batches() -> None:
    assert list(journey_batches(iter(()))) == []


@pytest.mark.slow
def test_spark_links_replies_across_partitions(spark) -> None:
    from pyspark.sql import functions as F

    from graph.pipeline.journeys import build_journeys

    messages = [{"hops": h, "fate": "consumed", "reply": r, "self_correl": s, "consumer": c}
                for h in (0, 1) for r in ("reply", "datagram", "stranger", None)
                for s in (False, True) for c in (0, 1)] * 2
    rows = _workload(messages)
    expected = _expected(rows)
    assert sum(1 for r in expected if r["reply_to"]) >= 12
    calls = spark.createDataFrame([tuple(r[n] for n, _ in CALL_COLUMNS) for r in rows],
                                  ", ".join(f"`{n}` {t}" for n, t in CALL_COLUMNS))
    parts = 5
    # the partition of each key under the stage's own partitioning
    placed = {r["journey_key"]: r["p"] for r in (
        calls.filter(F.col("journey_key").isNotNull()).repartition(parts, "journey_key")
        .select("journey_key", F.spark_partition_id().alias("p")).distinct().collect())}
    links = [(r["msg_id"], r["reply_to"]) for r in expected if r["reply_to"]]
    assert any(placed[m] != placed[q] for m, q in links)  # some cross partitions
    got = [r.asDict() for r in build_journeys(calls, partitions=parts).collect()]
    assert list(got[0]) == TABLE
    assert _bag(got, TABLE) == _bag(expected, TABLE)
