"""The streaming one-process journeys (graph.pipeline.journeyspill) give the in-memory rows.

For any number of buckets K: on the simulator's traced estate (run_local, which Spark is
tested against in test_journeys_pipeline) and on hypothesis workloads of call rows whose
replies land in other buckets than their requests; temporary files gone afterwards, also
when a write fails for a full disk (one-line error naming the file).
"""

from __future__ import annotations

import errno
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from graph.pipeline import journeyspill  # noqa: E402
from graph.pipeline.journeylocal import run_local, run_streaming, stream_local  # noqa: E402
from graph.pipeline.journeys import TABLE_COLUMNS  # noqa: E402
from graph.pipeline.journeyspill import (  # noqa: E402
    SpillError,
    buckets_for,
    call_batches_of,
    stream_journeys,
)
from tests.traceroute.journeys.test_journeys_pipeline import _traced  # noqa: E402
from traceroute.journeys.rows import (  # noqa: E402
    CALL_COLUMNS,
    journeys_of_rows,
    link_reply_rows,
)

TABLE = [name for name, _ in TABLE_COLUMNS]
KS = (1, 2, 7, 64)


def _bag(rows: list[dict], names: list[str] | None = None) -> Counter:
    return Counter(tuple(sorted((k, r[k]) for k in (names or r))) for r in rows)


@pytest.fixture(scope="module")
def estate(tmp_path_factory) -> tuple[list[str], list[dict], list[dict]]:
    files, _ = _traced(tmp_path_factory.mktemp("estate"))
    calls, journeys = run_local(files)
    return files, calls, journeys


@pytest.mark.parametrize("k", KS)
def test_streaming_gives_run_local_rows(estate, tmp_path: Path, k: int) -> None:
    files, calls, journeys = estate
    spill = tmp_path / "spill"
    spill.mkdir()
    got_calls, got = run_streaming(files, buckets=k, temp_dir=spill)
    assert _bag(got, TABLE) == _bag(journeys, TABLE)
    assert _bag(got_calls) == _bag(calls)
    assert sum(1 for r in got if r["reply_to"]) >= 10  # replies linked across buckets too
    assert list(spill.iterdir()) == []


def test_stream_local_writes_parquet_tables(estate, tmp_path: Path) -> None:
    files, calls, journeys = estate
    result = stream_local(files, tmp_path / "out", buckets=5, temp_dir=tmp_path)
    table = pq.read_table(tmp_path / "out" / "journeys")
    assert table.column_names == TABLE
    assert _bag(table.to_pylist()) == _bag(journeys, TABLE)
    assert _bag(pq.read_table(tmp_path / "out" / "calls").to_pylist()) == _bag(calls)
    assert result.journeys == len(journeys) and result.calls == len(calls)
    assert result.verdicts == dict(Counter(r["verdict"] for r in journeys))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# --- hypothesis workloads: call rows as the analyze job's calls/ table holds them -------------

_BLANK = dict.fromkeys(name for name, _ in CALL_COLUMNS)


def _row(conn: tuple, index: int, key: str | None, op: int, **fields) -> dict:
    qmgr, conn_key, seq, appl, env, channel = conn
    return {**_BLANK, "journey_key": key, "queue_manager": qmgr,
            "conn_id": conn_key.encode().hex().upper(),
            "conn_key": conn_key, "seq_number": seq, "call_index": index, "appl_name": appl,
            "environment": env, "channel_name": channel, "operation_id": op,
            "operation": {8: "MQPUT1", 10: "MQGET", 13: "MQOPEN"}[op], "comp_code": 0,
            "reason": 0, "msg_id": key, "format": "MQSTR", "msg_type": 8, "source": "h",
            "position": index, **fields}


_message = st.fixed_dictionaries({
    "hops": st.integers(0, 2), "fate": st.sampled_from(
        ("consumed", "consumed", "on_queue", "xmitq", "transit", "dead", "failed")),
    "reply": st.sampled_from((None, None, "reply", "datagram", "stranger")),
    "self_correl": st.booleans(), "consumer": st.integers(0, 2)})


def _workload(messages: list[dict]) -> list[dict]:
    """Call rows of messages in a chain QM0 -> QM1 -> QM2 (opens without key included)."""
    rows: list[dict] = []
    counters: Counter = Counter()

    def conn(qmgr: str, kind: str, channel: str | None = None) -> tuple:
        n = counters[qmgr, kind, channel]
        counters[qmgr, kind, channel] += 1
        env = 1 if kind in ("sender", "receiver") else 0
        return (qmgr, f"{qmgr}-{kind}-{channel}", n // 3, kind, env, channel), n % 3

    for i, m in enumerate(messages):
        key = f"414D5120{i + 1:040X}"
        path = [f"QM{h}" for h in range(m["hops"] + 1)]
        dest = path[-1]
        c, n = conn(path[0], "producer")
        rows.append(_row(c, 2 * n, None, 13, object_name="APP.Q"))  # the MQOPEN: no key
        if m["fate"] == "failed":
            rows.append(_row(c, 2 * n + 1, f"failed:{c[0]}:{c[1]}:{c[2]}:{2 * n + 1}", 8,
                             comp_code=2, reason=2085, msg_id=None, object_name="NO.Q"))
            continue
        rows.append(_row(c, 2 * n + 1, key, 8, object_name="APP.Q",
                         resolved_q_name="APP.Q", resolved_q_mgr=dest,
                         resolved_local_q_name=dest if m["hops"] else None,
                         correl_id=key if m["self_correl"] else None))
        stopped = False
        for h in range(m["hops"]):
            here, there = path[h], path[h + 1]
            if m["fate"] == "xmitq" and h == 0:
                stopped = True
                break
            ch = f"{here}.TO.{there}"
            c, n = conn(here, "sender", ch)
            rows.append(_row(c, n, key, 10, msg_id="58" + key[2:], format="MQXMIT",
                             object_name=there, resolved_q_name=there, xmitq_msg_id=key,
                             xmitq_remote_q_mgr=dest))
            if m["fate"] == "transit" and h == m["hops"] - 1:
                stopped = True
                break
            dead = m["fate"] == "dead" and h == m["hops"] - 1
            c, n = conn(there, "receiver", ch)
            rows.append(_row(c, n, key, 8, format="MQDEAD" if dead else "MQSTR",
                             object_name="DLQ" if dead else "APP.Q",
                             resolved_q_name="DLQ" if dead else "APP.Q",
                             resolved_q_mgr=there if dead or there == dest else dest,
                             resolved_local_q_name=None if dead or there == dest
                             else path[h + 2]))
            stopped = dead
        if stopped or m["fate"] != "consumed":
            continue
        consumer, n = conn(dest, f"consumer{m['consumer']}")
        rows.append(_row(consumer, n, key, 10, object_name="APP.Q", resolved_q_name="APP.Q",
                         get_options=0))
        if m["reply"] is None:
            continue
        reply = f"524550{i + 1:042X}"  # its own key: usually another bucket
        author = consumer if m["reply"] != "stranger" else conn(dest, "stranger")[0]
        rows.append(_row(author, n + 100, reply, 8, msg_id=reply, object_name="REPLY.Q",
                         resolved_q_name="REPLY.Q", resolved_q_mgr=dest, correl_id=key,
                         msg_type=2 if m["reply"] == "reply" else 8))
    return rows


def _in_memory(rows: list[dict]) -> list[dict]:
    journeys = journeys_of_rows(rows)
    link_reply_rows(journeys)
    return journeys


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_message, min_size=1, max_size=40), st.sampled_from(KS),
       st.integers(1, 50))
def test_streaming_equals_in_memory_on_workloads(messages, k, batch) -> None:
    rows = _workload(messages)
    expected = _in_memory(rows)
    got: list[dict] = []
    calls: list[dict] = []
    result = stream_journeys(call_batches_of(rows, size=batch), buckets=k,
                             on_calls=lambda t: calls.extend(t.to_pylist()),
                             on_journeys=lambda t: got.extend(t.to_pylist()))
    assert _bag(got, TABLE) == _bag(expected, TABLE)
    assert _bag(calls) == _bag(rows)
    assert result.journeys == len(expected)
    assert result.keyed_calls == sum(1 for r in rows if r["journey_key"] is not None)


def test_replies_link_across_buckets() -> None:
    """A reply and its request in different buckets; both the MQMT_REPLY rule and the
    same-consumer rule; a stranger's datagram is not a reply; a self-correlated put is not."""
    messages = [{"hops": 1, "fate": "consumed", "reply": r, "self_correl": s, "consumer": 0}
                for r in ("reply", "datagram", "stranger") for s in (False, True)] * 5
    rows = _workload(messages)
    expected = _in_memory(rows)
    linked = {r["msg_id"]: r["reply_to"] for r in expected}
    assert sum(1 for v in linked.values() if v) == 20
    pairs = [(r["msg_id"], r["reply_to"]) for r in expected if r["reply_to"]]
    for k in (2, 7, 64):
        # the buckets journeyspill puts them in (hash % K, this process's hash)
        assert any(hash(a) % k != hash(b) % k for a, b in pairs)
        got: list[dict] = []
        stream_journeys(call_batches_of(rows, size=7), buckets=k,
                        on_journeys=lambda t, got=got: got.extend(t.to_pylist()))
        assert {r["msg_id"]: r["reply_to"] for r in got} == linked


def test_no_calls_no_journeys(tmp_path: Path) -> None:
    result = stream_journeys(iter(()), buckets=3, out=tmp_path / "out", temp_dir=tmp_path)
    assert (result.calls, result.journeys) == (0, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_buckets_for_size() -> None:
    assert buckets_for(0) == 1 and buckets_for(200_000) == 1 and buckets_for(200_001) == 2
    assert buckets_for(10_000_000) == 50 and buckets_for(10**12) == journeyspill.MAX_BUCKETS
    with pytest.raises(ValueError):
        stream_journeys(iter(()), buckets=0)


@pytest.mark.parametrize("fail_at", [0, 1, 3, 8, 12])
def test_full_disk_is_one_line_naming_the_file(tmp_path: Path, monkeypatch,
                                                fail_at: int) -> None:
    """ENOSPC at the n-th file opened (spills, calls/, journeys/): SpillError naming that
    file, temporary files removed."""
    opened: list[Path] = []
    real = journeyspill._open_sink

    class Full:
        """A file whose writes fail as on a full disk."""

        def __init__(self, path: Path) -> None:
            self.path = path
            self.closed = False

        def write(self, data) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            self.closed = True

    def open_sink(path: Path):
        opened.append(path)
        if len(opened) - 1 == fail_at:
            return pa.PythonFile(Full(path), mode="w")
        return real(path)

    monkeypatch.setattr(journeyspill, "_open_sink", open_sink)
    rows = _workload([{"hops": 2, "fate": "consumed", "reply": "reply", "self_correl": False,
                       "consumer": 0}] * 30)
    spill = tmp_path / "spill"
    spill.mkdir()
    with pytest.raises(SpillError) as caught:
        stream_journeys(call_batches_of(rows, size=10), buckets=4, out=tmp_path / "out",
                        temp_dir=spill)
    text = str(caught.value)
    assert "\n" not in text and "No space left on device" in text
    assert text.startswith(f"{opened[fail_at]}:")
    assert list(spill.iterdir()) == []
