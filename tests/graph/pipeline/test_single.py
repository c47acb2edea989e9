"""The analyze job in one process (graph.pipeline.single) writes the tables Spark writes: the
same rows in every table, on a messy corpus with statistics, events and activity trace."""

from __future__ import annotations

import json
import os
import random

import pytest

from graph import pipeline
from graph.pipeline.events import route_event_rows as route_events
from graph.pipeline.inputs import list_inputs
from graph.pipeline.single import SMALL_INPUT, count_messages, run_single
from pcf import dmpmqmsg
from tests.support.tour import make_tour_data
from traceroute.sim.corpus import corpus, corrupt

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def estate(tmp_path_factory):
    """Activity reports of every verdict, a damaged dump, a raw file, and the tour's
    activity trace, events and statistics, in one folder."""
    folder = make_tour_data(tmp_path_factory.mktemp("estate"))
    (folder / "estate.mqsc").unlink()
    items = corpus(40, seed=3)
    (folder / "activity.dmp").write_text(
        dmpmqmsg.write([dmpmqmsg.DumpedMessage(c.md, c.data) for c in items]),
        encoding="latin-1")
    rng = random.Random(2)
    bad = [dmpmqmsg.DumpedMessage(c.md, corrupt(c.data, rng)) for c in items[:4]]
    (folder / "damaged.dmp").write_text(
        dmpmqmsg.write(bad).replace("A PRI", "A PRI x", 1), encoding="latin-1")
    (folder / "raw.bin").write_bytes(items[5].data)
    return folder


def _rows(path) -> list[str]:
    import pyarrow.dataset as ds

    table = ds.dataset(str(path), format="parquet", partitioning="hive").to_table()
    return sorted(json.dumps({k: str(v) for k, v in sorted(r.items())})
                  for r in table.to_pylist())


def test_every_table_equals_sparks(spark, estate, tmp_path):
    one = run_single([str(estate)], str(tmp_path / "one"), listing=list_inputs([str(estate)]))
    many = pipeline.run(spark, [str(estate)], str(tmp_path / "spark"))
    assert (one.messages, one.operations, one.rejected, one.routes, one.verdicts, one.stats,
            one.journeys) == (many.messages, many.operations, many.rejected, many.routes,
                              many.verdicts, many.stats, many.journeys)
    assert one.rejected and one.routes and one.stats["queue_stats"] and one.journeys
    tables = sorted(p.name for p in (tmp_path / "spark").iterdir() if p.is_dir())
    assert tables == sorted(p.name for p in (tmp_path / "one").iterdir() if p.is_dir())
    for table in tables:
        assert _rows(tmp_path / "one" / table) == _rows(tmp_path / "spark" / table), table
    assert (tmp_path / "one" / "_MQROUTE_ANALYZE").exists()
    assert any((tmp_path / "one" / "routes").glob("verdict=*"))  # partitioned as Spark's


ROUTE = {"correl_id": "aa", "verdict": "waiting_on_xmitq", "last_queue_manager": "QM1",
         "last_queue": "QM2", "last_channel": None, "last_time": "2026-11-22 10:00:00"}
EVENT = {"category": "channel", "event_type": 46, "event_type_name": "Channel Event",
         "reason": 2279, "reason_name": "Channel Stopped By User", "queue_manager": "QM1",
         "object": None, "channel": "QM1.TO.QM2", "xmit_queue": None,
         "time": "2026-11-22T06:00:00Z", "epoch": 1795327200, "correl_id": None,
         "object_state": None, "source": "e.dmp", "position": 0, "data": "{}"}


def _timed(event: dict) -> dict:
    """The event with its time what its epoch says (the events/ table has both)."""
    from datetime import UTC, datetime

    epoch = event["epoch"]
    time = None if epoch is None else \
        datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {**event, "time": time}


def _events_cases():
    started = {**EVENT, "reason": 2282, "reason_name": "Channel Started", "xmit_queue": "QM2",
               "epoch": 1795327200 - 600, "position": 1}  # before the stop: it stays stopped
    late = {**EVENT, "category": "queue", "reason": 2053, "object": "QM2",
            "epoch": 1795341600 + 301, "position": 2}
    early = {**EVENT, "category": "queue", "reason": 2224, "object": "QM2",
             "epoch": 1795341600 - 3601, "position": 3}
    near = {**EVENT, "category": "queue", "reason": 2224, "object": "QM2",
            "epoch": 1795341600 - 60, "position": 4}
    untimed = {**EVENT, "category": "queue", "reason": 2053, "object": "QM2", "epoch": None,
               "position": 5}
    other_qm = {**near, "queue_manager": "QM9", "position": 6}
    routes = [ROUTE, {**ROUTE, "correl_id": "bb", "last_time": None},
              {**ROUTE, "correl_id": "cc", "verdict": "delivered"},
              {**ROUTE, "correl_id": "dd", "last_queue": None, "last_channel": "QM1.TO.QM2"}]
    return routes, [_timed(e) for e in (EVENT, started, late, early, near, untimed, other_qm)]


def test_route_events_join_equals_sparks(spark):
    from graph.pipeline.events import EVENT_COLUMNS
    from graph.pipeline.events import route_events as spark_route_events
    from graph.pipeline.rows import ROUTE_COLUMNS
    from graph.pipeline.schema import ddl

    routes, events = _events_cases()
    full = [{n: r.get(n) for n, _ in ROUTE_COLUMNS} for r in routes]
    r_df = spark.createDataFrame([tuple(r.values()) for r in full], ddl(ROUTE_COLUMNS))
    e_df = spark.createDataFrame([tuple(e[n] for n, _ in EVENT_COLUMNS) for e in events],
                                 ddl(EVENT_COLUMNS))
    theirs = sorted(json.dumps(r.asDict(), sort_keys=True)
                    for r in spark_route_events(r_df, e_df).collect())
    ours = sorted(json.dumps(r, sort_keys=True) for r in route_events(full, events))
    assert ours == theirs
    assert len(ours) >= 4  # the stop (xmitq from Channel Started), near, untimed, by channel


def test_count_messages_stops_past_the_limit(estate):
    listing = list_inputs([str(estate)])
    total = count_messages(listing)
    assert 0 < total <= SMALL_INPUT
    assert count_messages(listing, limit=10) == 11


def test_any_number_of_spill_buckets_writes_the_same_tables(estate, tmp_path):
    """Operation rows spilled into 1 or 7 buckets (whole messages each): the same rows in
    every table, and the same counts; the spill folder is gone afterwards."""
    import tempfile

    listing = list_inputs([str(estate)])
    before = set(os.listdir(tempfile.gettempdir()))
    one = run_single([str(estate)], str(tmp_path / "one"), listing=listing, buckets=1)
    seven = run_single([str(estate)], str(tmp_path / "seven"), listing=listing, buckets=7)
    assert not {p for p in set(os.listdir(tempfile.gettempdir())) - before
                if p.startswith("mqroute-analyze-")}
    assert vars(one) | {"out": ""} == vars(seven) | {"out": ""}
    assert one.routes > 40 and one.rejected
    for table in sorted(p.name for p in (tmp_path / "one").iterdir() if p.is_dir()):
        assert _rows(tmp_path / "one" / table) == _rows(tmp_path / "seven" / table), table
    assert len(list((tmp_path / "seven" / "operations").rglob("*.parquet"))) > \
        len(list((tmp_path / "one" / "operations").rglob("*.parquet")))


def test_many_buckets_get_whole_pieces_not_one_per_classify_batch(estate, tmp_path,
                                                                  monkeypatch):
    """Operation rows are gathered before they are split: classify batches of 7 rows into
    16 buckets still give each bucket one piece (an IPC batch, a chunk, a row group
    downstream) per SPLIT_ROWS rows, not one per classify batch (at 10M reports the pieces
    were ~50 rows and a report cost 3.5x its CPU at 1M); the tables are unchanged."""
    from graph.pipeline import journeyspill, single

    listing = list_inputs([str(estate)])
    whole = run_single([str(estate)], str(tmp_path / "whole"), listing=listing, buckets=16)
    classify = single.classify_batches

    def small(batches):
        for batch in classify(batches):
            for start in range(0, batch.num_rows, 7):
                yield batch.slice(start, 7)

    writes: list[int] = []
    write = journeyspill.Spills.write

    def counted(self, bucket, batch):
        writes.append(bucket)
        return write(self, bucket, batch)

    monkeypatch.setattr(single, "classify_batches", small)
    monkeypatch.setattr(journeyspill.Spills, "write", counted)
    sliced = run_single([str(estate)], str(tmp_path / "sliced"), listing=listing, buckets=16)
    assert vars(whole) | {"out": ""} == vars(sliced) | {"out": ""}
    assert sliced.operations < single.SPLIT_ROWS and len(set(writes)) > 8
    assert len(writes) == len(set(writes))  # one piece per bucket
    for table in sorted(p.name for p in (tmp_path / "whole").iterdir() if p.is_dir()):
        assert _rows(tmp_path / "whole" / table) == _rows(tmp_path / "sliced" / table), table
