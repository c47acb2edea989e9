"""amqsmon/amqsact-like filters, the same on stats, events and follow: --queue, --channel,
--conn-id, --appl, --since, --until, generic names with *."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from mqroute.main import main
from mqroute.options import Filters, parse_time
from tests.support.tour import make_tour_data


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    return make_tour_data(tmp_path_factory.mktemp("tour"))


def lines(capsys, *argv: str) -> tuple[int, list[dict]]:
    status = main(list(argv))
    return status, [json.loads(x) for x in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("text,expected", [
    ("2026-11-22T10:00:00Z", datetime(2026, 11, 22, 10, tzinfo=UTC)),
    ("2026-11-22T10:00:00", datetime(2026, 11, 22, 10, tzinfo=UTC)),
    ("2026-11-22 10.05.30", datetime(2026, 11, 22, 10, 5, 30, tzinfo=UTC)),
    ("2026-11-22T12:00:00+02:00", datetime(2026, 11, 22, 10, tzinfo=UTC)),
    ("2026-11-22", datetime(2026, 11, 22, tzinfo=UTC)),
])
def test_times_iso_or_mq(text, expected):
    assert parse_time(text) == expected


def test_generic_names_and_conn_id_prefix():
    f = Filters(queues=["ORD*"], conn_ids=["414D5143"])
    assert f.names(queues=["ORDERS"], conn_id=bytes.fromhex("414D514351") + bytes(19))
    assert not f.names(queues=["OTHER"], conn_id=bytes.fromhex("414D5143"))
    assert not f.names(queues=[None], conn_id=bytes.fromhex("414D5143"))
    assert Filters(channels=["A", "B"]).names(channels=["B"])


def test_bad_filter_values_are_usage_errors(tour, capsys):
    for argv in (["--since", "yesterday"], ["--since", "2026-11-22T11:00:00Z",
                                             "--until", "2026-11-22T10:00:00Z"],
                 ["--conn-id", "zz"]):
        assert main(["stats", str(tour / "stats.dmp"), *argv]) == 2
        assert capsys.readouterr().err.startswith("mqroute: --")


def test_stats_by_queue_channel_and_time(tour, capsys):
    _, every = lines(capsys, "stats", "--json", str(tour / "stats.dmp"))
    _, queues = lines(capsys, "stats", "--json", "--queue", "ORD*", str(tour / "stats.dmp"))
    assert queues and {r["object"] for r in queues} == {"ORDERS"}
    _, channels = lines(capsys, "stats", "--json", "--channel", "QM1.TO.QM2",
                        str(tour / "stats.dmp"))
    assert channels and {r["record_type"] for r in channels} == {"ChannelStatistics"}
    assert len(queues) + len(channels) <= len(every)
    first = min(r["interval_start"] for r in every)
    _, late = lines(capsys, "stats", "--json", "--since", "2026-11-22 10.10.00",
                    str(tour / "stats.dmp"))
    assert late and all(r["interval_end"] >= "2026-11-22T10:10:00" for r in late)
    assert len(late) < len(every) or first >= "2026-11-22T10:10:00"


def test_events_by_queue_and_time(tour, capsys):
    _, every = lines(capsys, "events", "--json", str(tour / "events.dmp"))
    _, orders = lines(capsys, "events", "--json", "--queue", "ORDERS", str(tour / "events.dmp"))
    assert orders and all(e["eventData"].get("baseObjectName") == "ORDERS" for e in orders)
    _, channel = lines(capsys, "events", "--json", "--channel", "QM1.*",
                       str(tour / "events.dmp"))
    assert channel and all("ORDERS" not in json.dumps(e) for e in channel)
    assert len(orders) + len(channel) == len(every)
    _, none = lines(capsys, "events", "--json", "--until", "2026-11-22T09:00:00Z",
                    str(tour / "events.dmp"))
    assert none == []


def test_follow_by_application_queue_and_time(tour, capsys):
    _, every = lines(capsys, "follow", "--json", str(tour / "trace.dmp"))
    _, orders = lines(capsys, "follow", "--json", "--appl", "orders", str(tour / "trace.dmp"))
    assert len(orders) == len(every)  # every message is put by 'orders'
    _, none = lines(capsys, "follow", "--json", "--appl", "nobody", str(tour / "trace.dmp"))
    assert none == []
    _, stuck = lines(capsys, "follow", "--json", "--since", "2026-11-22T10:15:00Z",
                     str(tour / "trace.dmp"))
    assert stuck and {j["verdict"] for j in stuck} == {"on_xmitq"}
    _, via = lines(capsys, "follow", "--json", "--channel", "QM1.TO.QM2",
                   str(tour / "trace.dmp"))
    assert via and all(j["verdict"] != "on_xmitq" for j in via)
