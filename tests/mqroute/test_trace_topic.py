"""`mqroute trace -ts`: dspmqrte's topic mode on the simulated publish/subscribe estate
(traceroute/examples/pubsub.mqsc: a cluster of three queue managers and a hierarchy child),
as MQSC files and as an estate folder: a branch per subscriber with its verdict and the
subscription's destination, JSON branches, and the worst branch's exit status."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from mqroute.main import main

EXAMPLE = resources.files("traceroute").joinpath("examples/pubsub.mqsc").read_text()
TRACE = ["trace", "-m", "QMA", "-ts", "Sport/Scores/Soccer", "--seed", "1"]


def estate_file(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "pubsub.mqsc"
    path.write_text(EXAMPLE + extra)
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_every_subscriber_is_a_branch_and_delivery_no_is_success(tmp_path, capsys):
    status, out, err = run(capsys, *TRACE, "--network", estate_file(tmp_path))
    assert status == 0, err
    assert "successfully put a message on topic string 'Sport/Scores/Soccer'" in out
    # dspmqrte's summary: every subscriber queue reached (with -d no: discarded there)
    for qmgr, queue in [("QMA", "A.SCORES"), ("QMB", "B.ARCHIVE"), ("QMB", "B.SOCCER"),
                        ("QMC", "C.SCORES"), ("QMD", "D.SCORES")]:
        assert f"AMQ8666: Queue '{queue}' on queue manager '{qmgr}'." in out
    branches = [line for line in out.splitlines() if line.startswith("Branch ")]
    assert [b.split(":")[0] for b in branches] == ["Branch 1", "Branch 2.1", "Branch 2.2",
                                                  "Branch 3.1", "Branch 3.2.1"]
    assert all("queue manager" in b and "reached its target" in b for b in branches)
    assert "queue 'D.SCORES'" in branches[-1]


@pytest.mark.parametrize("ro,status,archive", [
    # dspmqrte's default report options include discard: the copy B.ARCHIVE (full)
    # cannot take is discarded (6); without it, it is dead-lettered (5)
    ("activity,discard", 6, "discarded, reason MQRC_Q_FULL (2053)"),
    ("activity", 5, "on the dead-letter queue of QMB, reason MQRC_Q_FULL (2053)"),
])
def test_delivered_with_one_subscriber_unreachable(tmp_path, capsys, ro, status, archive):
    # QMC cannot reach QMD (its channel is stopped): that branch waits on QMC's
    # transmission queue; the worst branch decides the exit status (6 > 5 > 4)
    extra = "* Queue manager name: QMC\nSTOP CHANNEL(QMC.QMD)\n"
    got, out, err = run(capsys, *TRACE, "-d", "yes", "-ro", ro, "--network",
                        estate_file(tmp_path, extra), "-w", "5")
    assert got == status, err
    branches = {line.split(":")[0]: line for line in out.splitlines()
                if line.startswith("Branch ")}
    assert "delivered" in branches["Branch 1"] and "'A.SCORES'" in branches["Branch 1"]
    assert archive in branches["Branch 2.1"]
    assert "delivered" in branches["Branch 2.2"] and "'B.SOCCER'" in branches["Branch 2.2"]
    assert "waiting on a transmission queue" in branches["Branch 3.2"]
    assert "bound for queue manager 'QMD'" in branches["Branch 3.2"]
    # the live explanation of the stuck branch: QMC's transmission queue to QMD, its channel
    assert "now: " in err and "QMC.QMD is STOPPED" in err and "queue QMD" in err


def test_json_has_a_branch_per_subscription_with_its_destination(tmp_path, capsys):
    status, out, err = run(capsys, *TRACE, "-d", "yes", "-ro", "activity", "--json",
                           "--network", estate_file(tmp_path))
    assert status == 5, err
    (document,) = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert document["verdict"] == "dead_lettered"

    def leaves(route, path=()):
        if not route["branches"]:
            yield path, route
        for n, b in enumerate(route["branches"], 1):
            yield from leaves(b, (*path, n))

    found = {p: (r["last_known_location"]["queue_manager"],
                 r["last_known_location"]["queue"], r["verdict"], r["via"]["operation"])
             for p, r in leaves(document)}
    assert found == {
        (1,): ("QMA", "A.SCORES", "delivered", "Publish"),
        (2, 1): ("QMB", "SYSTEM.DEAD.LETTER.QUEUE", "dead_lettered", "DiscardedPublish"),
        (2, 2): ("QMB", "B.SOCCER", "delivered", "Publish"),
        (3, 1): ("QMC", "C.SCORES", "delivered", "Publish"),
        (3, 2, 1): ("QMD", "D.SCORES", "delivered", "Publish"),
    }
    top = document["activities"][-1]["operations"]
    assert [op["operation"] for op in top] == ["Put", "Publish", "ExcludedPublish",
                                               "Publish", "Publish"]
    assert top[0]["topic"] == "Sport/Scores/Soccer" and top[0]["queue"] is None
    assert top[2]["feedback"] == "SelectorMismatch" and top[2]["msg_id"] is None


def test_an_estate_folder_and_its_runmqsc(tmp_path, capsys):
    folder = tmp_path / "estate"
    assert main(["sim", "init", str(folder), estate_file(tmp_path)]) == 0
    capsys.readouterr()
    status, out, err = run(capsys, *TRACE, "--network", str(folder))
    assert status == 0, err
    assert out.count("Branch ") == 5


def test_no_subscriber_and_a_put_inhibited_topic(tmp_path, capsys):
    extra = ("* Queue manager name: QMA\n"
             "DEFINE TOPIC(CLOSED) TOPICSTR('Closed') PUB(DISABLED)\n")
    path = estate_file(tmp_path, extra)
    status, out, _ = run(capsys, "trace", "-m", "QMA", "-ts", "Weather", "--network", path)
    assert status == 6 and "published to no subscription" in out
    status, _, err = run(capsys, "trace", "-m", "QMA", "-ts", "Closed/News", "--network",
                         path)
    assert status == 2 and "MQRC_PUT_INHIBITED" in err


@pytest.mark.parametrize("topic", ["Sport/#", "Sport/+/Soccer"])
def test_a_wildcard_is_no_topic_to_publish_to(tmp_path, capsys, topic):
    status, _, err = run(capsys, "trace", "-m", "QMA", "-ts", topic, "--network",
                         estate_file(tmp_path))
    assert status == 2 and "MQRC_TOPIC_STRING_ERROR" in err


def test_the_route_picture_draws_the_fan_out(tmp_path, capsys):
    """--graph: the topic on each queue manager, a publish edge to each subscriber's queue
    in its queue manager's box, the copy waiting for QMD as a queue manager not reached."""
    pytest.importorskip("pygraphviz")
    extra = "* Queue manager name: QMC\nSTOP CHANNEL(QMC.QMD)\n"
    svg = tmp_path / "fan.svg"
    got, _out, err = run(capsys, *TRACE, "-d", "yes", "-ro", "activity", "--network",
                        estate_file(tmp_path, extra), "-w", "5", "--graph", str(svg))
    assert got == 5, err
    text = svg.read_text()
    assert "out: 5 branches" in text  # 'fan-out' (Graphviz writes the hyphen as &#45;)
    for queue in ("A.SCORES", "B.SOCCER", "C.SCORES", "SYSTEM.DEAD."):
        assert queue in text
    assert text.count("&#45;&gt; publish") + text.count("publish</text>") >= 4
    assert "QMD" in text and "not reached" in text
