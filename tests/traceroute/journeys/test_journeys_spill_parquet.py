"""`journeyspill.stream_parquet` (a calls Parquet file in): the same calls/ and journeys/ as
`stream_journeys` of the file's batches, calls/ a byte copy when the file has the calls
schema, and the batch path for any other file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from graph.pipeline import journeyspill  # noqa: E402
from graph.pipeline.journeyspill import (  # noqa: E402
    SpillError,
    call_batches_of,
    stream_journeys,
    stream_parquet,
)
from graph.pipeline.schema import arrow_schema  # noqa: E402
from tests.traceroute.journeys.test_journeys_spill import (  # noqa: E402
    KS,
    TABLE,
    _bag,
    _message,
    _workload,
)
from traceroute.journeys.rows import CALL_COLUMNS  # noqa: E402


def _write(path: Path, rows: list[dict], schema=None, row_group: int = 13) -> Path:
    table = pa.Table.from_batches(list(call_batches_of(rows)), schema=arrow_schema(CALL_COLUMNS))
    if schema is not None:
        table = table.select(schema.names).cast(schema)
    pq.write_table(table, path, row_group_size=row_group)
    return path


def _both(tmp: Path, path: Path, k: int, batch: int) -> tuple:
    """(calls, journeys) of stream_parquet and of stream_journeys, and the two results."""
    got = stream_parquet(path, buckets=k, out=tmp / "new", temp_dir=tmp, batch_size=batch)
    f = pq.ParquetFile(path)
    want = stream_journeys(f.iter_batches(batch_size=batch), buckets=k, out=tmp / "old",
                           temp_dir=tmp)
    tables = {w: (pq.read_table(tmp / w / "calls").to_pylist(),
                  pq.read_table(tmp / w / "journeys").to_pylist()) for w in ("new", "old")}
    return tables["new"], tables["old"], got, want


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(_message, min_size=1, max_size=30), st.sampled_from(KS),
       st.integers(1, 40))
def test_parquet_in_equals_batches_in(tmp_path_factory, messages, k, batch) -> None:
    tmp = tmp_path_factory.mktemp("pq")
    rows = _workload(messages)
    path = _write(tmp / "calls.parquet", rows)
    (calls, journeys), (old_calls, old_journeys), got, want = _both(tmp, path, k, batch)
    assert calls == old_calls                      # the same rows in the same order
    assert _bag(journeys, TABLE) == _bag(old_journeys, TABLE)
    assert (got.calls, got.keyed_calls, got.journeys, got.verdicts) == \
        (want.calls, want.keyed_calls, want.journeys, want.verdicts)
    # calls/ is the input file itself
    assert (tmp / "new" / "calls" / "part-0.parquet").read_bytes() == path.read_bytes()


def test_another_schema_goes_through_the_batches(tmp_path: Path) -> None:
    """Columns in another order, a wider type: calls/ written from the batches (CALL_COLUMNS'
    schema), not copied."""
    rows = _workload([{"hops": 2, "fate": "consumed", "reply": "reply", "self_correl": False,
                       "consumer": 0}] * 20)
    schema = arrow_schema(CALL_COLUMNS)
    reordered = pa.schema(list(reversed(list(schema))))
    for name, other in (("reordered", reordered),
                        ("large", pa.schema([pa.field(f.name, pa.large_string())
                                             if f.name == "journey_key" else f
                                             for f in schema]))):
        path = _write(tmp_path / f"{name}.parquet", rows, other)
        (tmp_path / name).mkdir()
        (calls, journeys), (old_calls, old_journeys), _, _ = _both(tmp_path / name, path, 3, 17)
        assert calls == old_calls and len(calls) == len(rows)
        assert _bag(journeys, TABLE) == _bag(old_journeys, TABLE)
        written = pq.ParquetFile(tmp_path / name / "new" / "calls" / "part-0.parquet")
        assert written.schema_arrow.equals(schema)


def test_on_calls_and_no_out_read_the_batches(tmp_path: Path) -> None:
    rows = _workload([{"hops": 1, "fate": "consumed", "reply": None, "self_correl": False,
                       "consumer": 0}] * 10)
    path = _write(tmp_path / "calls.parquet", rows)
    seen: list[dict] = []
    journeys: list[dict] = []
    stream_parquet(path, buckets=2, on_calls=lambda t: seen.extend(t.to_pylist()),
                   on_journeys=lambda t: journeys.extend(t.to_pylist()), temp_dir=tmp_path)
    assert _bag(seen) == _bag(pq.read_table(path).to_pylist())
    result = stream_parquet(path, buckets=2, temp_dir=tmp_path)
    assert result.journeys == len(journeys) > 0


def test_empty_file_writes_no_calls(tmp_path: Path) -> None:
    path = tmp_path / "calls.parquet"
    pq.write_table(arrow_schema(CALL_COLUMNS).empty_table(), path)
    result = stream_parquet(path, buckets=2, out=tmp_path / "out", temp_dir=tmp_path)
    assert (result.calls, result.journeys) == (0, 0)
    assert not (tmp_path / "out" / "calls").exists()


def test_unreadable_and_uncopyable_files_are_one_line(tmp_path: Path, monkeypatch) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(SpillError) as caught:
        stream_parquet(bad, buckets=1, out=tmp_path / "out", temp_dir=tmp_path)
    assert str(caught.value).startswith(f"{bad}:") and "\n" not in str(caught.value)
    rows = _workload([{"hops": 1, "fate": "consumed", "reply": None, "self_correl": False,
                       "consumer": 0}] * 5)
    path = _write(tmp_path / "calls.parquet", rows)

    def full(src, dst, *a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journeyspill.shutil, "copyfile", full)
    spill = tmp_path / "spill"
    spill.mkdir()
    with pytest.raises(SpillError) as caught:
        stream_parquet(path, buckets=2, out=tmp_path / "out2", temp_dir=spill)
    assert str(caught.value) == \
        f"{tmp_path / 'out2' / 'calls' / 'part-0.parquet'}: No space left on device"
    assert list(spill.iterdir()) == []


def test_distinct_values_in_a_dictionary_column_are_spilled_once(tmp_path: Path) -> None:
    """Columns read as dictionaries (queue managers, names) holding a distinct value per row:
    the same journeys, and each bucket's slice keeps only its own values (not the batch's
    whole dictionary, K times over)."""
    rows = _workload([{"hops": 2, "fate": "consumed", "reply": "reply", "self_correl": False,
                       "consumer": 0}] * 40)
    for i, r in enumerate(rows):
        r["appl_name"] = f"APPLICATION-{i:06d}-" + "x" * 40
        r["object_name"] = None if i % 3 else f"Q.{i}"
    path = _write(tmp_path / "calls.parquet", rows, row_group=len(rows))
    (calls, journeys), (old_calls, old_journeys), got, want = _both(tmp_path, path, 7, 10_000)
    assert calls == old_calls
    assert _bag(journeys, TABLE) == _bag(old_journeys, TABLE)
    assert got.spill_bytes < 1.5 * want.spill_bytes
