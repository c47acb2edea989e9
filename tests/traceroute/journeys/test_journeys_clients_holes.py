"""Client applications are applications; a hole in a connection's trace loses no call.

Issue 25 items 1 and 2, each as a class: every verdict with local and client producers and
consumers (and a mix) gives the same answer through `follow` (reconstruct) and through the
`journeys/` rows of analyze (call rows -> journeys_of_rows, partitioned by MsgId as the job
does); and a three-hop route with the record of each one of its six calls lost keeps every
other call in its place, the notes naming the hole.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from graph.pipeline.journeylocal import run_local
from mqroute.main import main
from pcf import mqc
from pcf.dmpmqmsg import DumpedMessage, write_file
from pcf.mqmd import MQMD, unpack
from tests.traceroute.journeys.scenarios import T0, M, app_get, app_put, mca_get, mca_put
from tests.traceroute.journeys.spec_build import OPEN, conn_id, op, trace_message
from traceroute.journeys import parse_activity_trace, reconstruct
from traceroute.journeys.calls import Connection, is_mca
from traceroute.journeys.rows import call_rows, journeys_of_rows, link_reply_rows
from traceroute.journeys.verdict import JourneyVerdict as V
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

SVRCONN = "APP.SVRCONN"
EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()

# --- the rule -------------------------------------------------------------------------------

_MESSAGE_CHANNELS = [mqc.MQCHT_SENDER, mqc.MQCHT_SERVER, mqc.MQCHT_RECEIVER,
                     mqc.MQCHT_REQUESTER, mqc.MQCHT_CLUSSDR, mqc.MQCHT_CLUSRCVR]


@pytest.mark.parametrize("environment", [None, mqc.MQXE_OTHER, mqc.MQXE_MCA,
                                         mqc.MQXE_MCA_SVRCONN, mqc.MQXE_COMMAND_SERVER,
                                         mqc.MQXE_MQSC, mqc.MQXE_MCA_CLNTCONN])
@pytest.mark.parametrize("channel_type", [None, *_MESSAGE_CHANNELS, mqc.MQCHT_SVRCONN,
                                          mqc.MQCHT_CLNTCONN, mqc.MQCHT_MQTT,
                                          mqc.MQCHT_AMQP])
def test_channel_agent_or_application_by_what_the_record_says(environment, channel_type):
    want = (environment == mqc.MQXE_MCA and (channel_type is None
                                             or channel_type in _MESSAGE_CHANNELS)) or \
        (environment is None and channel_type in _MESSAGE_CHANNELS)
    for name in ("", "SOME.CHANNEL"):  # a channel name decides nothing
        conn = Connection(environment=environment, channel_type=channel_type,
                          channel_name=name)
        assert conn.is_mca is want
    assert is_mca(environment, channel_type) is want


# --- every verdict, local and client applications ---------------------------------------------

def _scenario(name: str, producer: str, consumer: str) -> list[tuple[bytes, bytes]]:
    """One message's records; `producer`/`consumer` is "" (local) or the SVRCONN channel."""
    remote = dict(target_qmgr="QM2", xmitq="QM2", client=producer)
    hop = [mca_get("QM1", "QM2", "QM1.TO.QM2", "QM2", "TARGET.Q", t=1000)]
    if name == "consumed_local":
        return [app_put("QM1", "LQ", client=producer),
                *app_get("QM1", "LQ", t=500, client=consumer)]
    if name == "consumed_remote":
        return [app_put("QM1", "TARG.AT.QM2", **remote), *hop,
                mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", t=2000),
                *app_get("QM2", "TARGET.Q", t=3000, client=consumer)]
    if name == "browsed_on_queue":
        return [app_put("QM1", "LQ", client=producer),
                *app_get("QM1", "LQ", t=500, browse=True, client=consumer)]
    if name == "on_queue":
        return [app_put("QM1", "LQ", client=producer)]
    if name == "on_xmitq":
        return [app_put("QM1", "TARG.AT.QM2", **remote)]
    if name == "in_transit":
        return [app_put("QM1", "TARG.AT.QM2", **remote), *hop]
    if name == "dead_lettered":
        return [app_put("QM1", "TARG.AT.QM2", **remote), *hop,
                mca_put("QM2", "SYSTEM.DEAD.LETTER.QUEUE", "QM1.TO.QM2", t=2000, dead=True)]
    if name == "put_failed":
        return [app_put("QM1", "NO.SUCH.Q", cc=2, reason=2085, client=producer)]
    if name == "consumed_put_untraced":  # the producer's records were not collected
        return [*hop, mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", t=2000),
                *app_get("QM2", "TARGET.Q", t=3000, client=consumer)]
    if name == "incomplete":
        return [mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", t=2000)]
    raise AssertionError(name)


_VERDICTS = {"consumed_local": V.CONSUMED, "consumed_remote": V.CONSUMED,
             "browsed_on_queue": V.ON_QUEUE, "on_queue": V.ON_QUEUE, "on_xmitq": V.ON_XMITQ,
             "in_transit": V.IN_TRANSIT, "dead_lettered": V.DEAD_LETTERED,
             "put_failed": V.PUT_FAILED, "consumed_put_untraced": V.CONSUMED,
             "incomplete": V.INCOMPLETE}
_MIXES = [("", ""), (SVRCONN, ""), ("", SVRCONN), (SVRCONN, "OTHER.SVRCONN")]


def _follow(messages):
    return reconstruct(parse_activity_trace(unpack(md), d, source="t") for md, d in messages)


def _journeys_rows(messages, parts: int = 1) -> list[dict]:
    """The journeys/ rows as analyze makes them: per MsgId partition, replies linked after."""
    calls = [r for md, d in messages for r in call_rows(parse_activity_trace(unpack(md), d))]
    rows: list[dict] = []
    for p in range(parts):
        rows += journeys_of_rows(r for r in calls if r["journey_key"]
                                 and hash(r["journey_key"]) % parts == p)
    link_reply_rows(rows)
    return rows


@pytest.mark.parametrize("name", sorted(_VERDICTS))
@pytest.mark.parametrize(("producer", "consumer"), _MIXES)
def test_every_verdict_with_client_and_local_applications(name, producer, consumer):
    messages = _scenario(name, producer, consumer)
    (j,) = _follow(messages).journeys
    assert j.verdict == _VERDICTS[name], j.to_dict()
    # the same answer as with local applications, and as the journeys/ rows give
    (local,) = _follow(_scenario(name, "", "")).journeys
    assert (j.verdict, j.last_location, len(j.steps), j.hops) == (
        local.verdict, local.last_location, len(local.steps), local.hops)
    assert [s.role for s in j.steps] == [s.role for s in local.steps]
    (row,) = _journeys_rows(messages)
    assert (row["verdict"], row["last_queue_manager"], row["last_queue"], row["steps"],
            row["hops"]) == (str(j.verdict), j.last_location.queue_manager,
                             j.last_location.queue, len(j.steps), j.hops)
    assert row["applications"] == ",".join(j.applications)
    # a client application's path entry names its SVRCONN channel; an MCA's, its channel
    for step in j.to_dict()["path"]:
        if step["appl_name"] in ("amqsputc",):
            assert step["channel"] == producer
        elif step["appl_name"] == "amqsget":
            assert step["channel"] == (consumer or None)
        elif step["appl_name"] == "amqsput":
            assert step["channel"] is None
        else:
            assert step["channel"] == "QM1.TO.QM2"
    if producer and j.steps and j.steps[0].role in ("put", "failed_put"):
        assert j.steps[0].call.conn.appl_name in j.applications or name == "put_failed"


def test_a_client_consumers_get_is_a_consumption_not_a_channel_get():
    """What was wrong: MQXE_MCA_SVRCONN was taken for a channel agent, so the consumer's
    get was an 'MCA get' and the message stayed on_queue."""
    messages = [app_put("QM1", "LQ", client=SVRCONN),
                *app_get("QM1", "LQ", t=500, client=SVRCONN, appl="orders-service")]
    (j,) = _follow(messages).journeys
    assert j.verdict == V.CONSUMED
    assert j.applications == ["amqsputc", "orders-service"]
    assert [(p["operation"], p["channel"]) for p in j.to_dict()["path"]] == [
        ("MQPUT", SVRCONN), ("MQGET", SVRCONN)]


# --- the simulator's client connections, through `mqroute follow` and analyze --------------

def _client_estate(tmp: Path) -> list[str]:
    mqsc = EXAMPLE.replace("ALTER QMGR ACTIVREC(MSG)", "ALTER QMGR ACTVTRC(ON) ACTIVREC(MSG)")
    mqsc += ("\n* Queue manager name: QM1\nDEFINE QLOCAL('LQ') REPLACE\n"
             "DEFINE CHANNEL('QM1.APPS') CHLTYPE(SVRCONN)\n"   # clients connect through these
             "* Queue manager name: QM2\nDEFINE CHANNEL('QM2.APPS') CHLTYPE(SVRCONN)\n")
    sim = Simulator(parse_mqsc(mqsc, source="clients.mqsc"), seed=1)
    tracer = ActivityTracer(sim)
    sim.connection("QM1", "amqsputc", client_channel="QM1.APPS", client_host="10.0.0.7")
    sim.connection("QM2", "orders", client_channel="QM2.APPS", client_host="10.0.0.8")
    for n in range(3):
        assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"order %d" % n,
                       appl_name="amqsputc").ok
        assert sim.put("QM1", "LQ", MQMD(format="MQSTR"), b"local %d" % n,
                       appl_name="amqsputc").ok
    sim.run()
    for _ in range(2):
        assert sim.get("QM2", "TARGET.Q", appl_name="orders") is not None
    assert sim.get("QM1", "LQ", appl_name="amqsget") is not None
    sim.disconnect_all()
    files = []
    for qm in ("QM1", "QM2"):
        path = tmp / f"{qm}.dmp"
        write_file(path, [DumpedMessage(md, d) for md, d in tracer.messages(qm)])
        files.append(str(path))
    return files


def test_simulated_clients_through_follow_and_analyze(tmp_path: Path, capsys) -> None:
    files = _client_estate(tmp_path)
    assert main(["follow", *files, "--json"]) == 0
    journeys = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    verdicts = sorted(j["verdict"] for j in journeys)
    assert verdicts == ["consumed"] * 3 + ["on_queue"] * 3
    for j in journeys:
        first = j["path"][0]
        assert (first["appl_name"], first["channel"]) == ("amqsputc", "QM1.APPS")
        last = j["path"][-1]
        if j["verdict"] == "consumed" and last["appl_name"] == "orders":
            assert last["channel"] == "QM2.APPS" and last["queue_manager"] == "QM2"
    _calls, rows = run_local(files)
    assert sorted(r["verdict"] for r in rows) == verdicts
    by_id = {j["msg_id"]: j for j in journeys}
    for r in rows:
        j = by_id[r["msg_id"]]
        assert (r["steps"], r["hops"], r["last_queue_manager"], r["last_queue"]) == (
            len(j["path"]), sum(p["appl_name"] == "amqrmppa" for p in j["path"]),
            j["last_location"]["queue_manager"], j["last_location"]["queue"])
    assert {r["applications"] for r in rows if r["verdict"] == "consumed"} == {
        "amqsputc,orders", "amqsputc,amqsget"}


# --- holes: the record of each call of a three-hop route lost in turn ------------------------

_CONNS = [("QM1", 1, "amqsput", ""), ("QM1", 50, "runmqchl", "QM1.TO.QM2"),
          ("QM2", 60, "amqrmppa", "QM1.TO.QM2"), ("QM2", 51, "runmqchl", "QM2.TO.QM3"),
          ("QM3", 61, "amqrmppa", "QM2.TO.QM3"), ("QM3", 2, "amqsget", "")]
_ROLES = ["put", "mca_get", "mca_put", "mca_get", "mca_put", "get"]


def _three_hops() -> list[tuple[bytes, bytes]]:
    """QM1 -> QM2 -> QM3: one record per call (SeqNumber 0 of its connection)."""
    return [app_put("QM1", "TARG.AT.QM3", target_qmgr="QM3", xmitq="QM2", t=0),
            mca_get("QM1", "QM2", "QM1.TO.QM2", "QM3", "TARGET.Q", t=1000),
            mca_put("QM2", "TARGET.Q", "QM1.TO.QM2", t=2000, xmitq="QM3", target_qmgr="QM3"),
            mca_get("QM2", "QM3", "QM2.TO.QM3", "QM3", "TARGET.Q", t=3000, n=51),
            mca_put("QM3", "TARGET.Q", "QM2.TO.QM3", t=4000, n=61),
            *app_get("QM3", "TARGET.Q", t=5000)]


def _later_records() -> list[tuple[bytes, bytes]]:
    """Every connection's next record (SeqNumber 1): it makes a lost SeqNumber 0 a hole."""
    return [trace_message(qm, appl, [op(OPEN, hobj=9, object_name="OTHER.Q",
                                        resolved_q="OTHER.Q", resolved_qmgr=qm,
                                        time_us=T0 + 9000)],
                          conn=conn_id(qm, n), seq=1, mca=bool(channel), channel=channel)
            for qm, n, appl, channel in _CONNS]


@pytest.mark.parametrize("lost", range(6))
def test_a_hole_at_each_position_of_a_three_hop_route(lost: int) -> None:
    route = _three_hops()
    messages = [m for i, m in enumerate(route) if i != lost] + _later_records()
    result = _follow(messages)
    assert result.holes == {("QM" + str(_CONNS[lost][0][-1]),
                             conn_id(_CONNS[lost][0], _CONNS[lost][1]).hex().upper()): [(0, 0)]}
    (j,) = [j for j in result.journeys if j.msg_id == M]
    kept = [(c[0], r) for i, (c, r) in enumerate(zip(_CONNS, _ROLES, strict=True))
            if i != lost]
    # every call that is there, in its place
    assert [(s.call.qmgr, s.role) for s in j.steps] == kept
    assert j.verdict == (V.ON_QUEUE if lost == 5 else V.CONSUMED)
    hole = f"trace messages missing on {_CONNS[lost][0]} for connection "
    assert any(n.startswith(hole) and n.endswith("SeqNumber 0") for n in j.notes), j.notes
    if lost == 0:
        assert "the original put was not traced; first seen on QM1" in j.notes
    elif lost < 5:
        assert any(n.startswith("records missing between") for n in j.notes), j.notes
    # the journeys/ row: the same path and verdict, the gap named (SeqNumber holes are
    # a whole-connection view: follow's)
    for parts in (1, 3):
        (row,) = [r for r in _journeys_rows(messages, parts) if r["msg_id"] == M.hex().upper()]
        assert (row["verdict"], row["steps"], row["hops"]) == (str(j.verdict), len(j.steps),
                                                             j.hops)
        gap_notes = [n for n in j.notes if not n.startswith("trace messages missing")]
        assert (row["notes"] or "") == "; ".join(gap_notes)


def test_two_holes_on_one_route_keep_every_call_in_order() -> None:
    route = _three_hops()
    for lost in [(1, 3), (0, 2), (2, 4), (1, 4), (0, 5)]:
        messages = [m for i, m in enumerate(route) if i not in lost] + _later_records()
        (j,) = [j for j in _follow(messages).journeys if j.msg_id == M]
        kept = [(c[0], r) for i, (c, r) in enumerate(zip(_CONNS, _ROLES, strict=True))
                if i not in lost]
        assert [(s.call.qmgr, s.role) for s in j.steps] == kept, lost
