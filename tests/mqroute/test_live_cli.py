"""`mqroute status`, `config`, `audit -m` and the live explanation of `trace`/`show`/
`follow`, on simulated estates: the contracts of issue 28 (text, JSON keys, exit
statuses), config's round trip over generated estates, audit -m finding exactly what
audit finds over the same definitions as MQSC files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pcf import dmpmqmsg
from tests.support.cli import run, stopped_demo_estate

QUEUE_KEYS = ["queue_manager", "object_type", "name", "curdepth", "ipprocs", "opprocs",
              "uncom", "msgage", "qtime", "last_put", "last_get"]
CHANNEL_KEYS = ["queue_manager", "object_type", "name", "chltype", "status", "substate",
                "conname", "xmitq", "msgs", "batches", "xqtime", "nettime", "last_msg"]


@pytest.fixture
def estate(tmp_path):
    """The demo estate with QM1.TO.QM2 stopped, monitoring on, 3 messages waiting."""
    return stopped_demo_estate(str(tmp_path / "estate"))


def lines(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines()]


def test_status_lists_local_queues_and_channels_as_the_contract_says(estate):
    status, out, err = run("status", "--network", estate, "-m", "QM1", "--json")
    assert status == 0 and err == ""
    objects = lines(out)
    queues = [o for o in objects if o["object_type"] == "queue"]
    channels = [o for o in objects if o["object_type"] == "channel"]
    assert all(list(o) == QUEUE_KEYS for o in queues)
    assert all(list(o) == CHANNEL_KEYS for o in channels)
    assert [q["name"] for q in queues] == ["ACTIV.REPLY.Q", "QM2", "TR.REPLY.Q"]  # no SYSTEM.*
    xmitq = queues[1]
    assert xmitq["curdepth"] == 3 and isinstance(xmitq["msgage"], int)
    assert xmitq["last_put"].endswith("Z") and xmitq["qtime"] is None
    assert {c["name"]: c["status"] for c in channels} == {"QM1.TO.QM2": "STOPPED",
                                                          "QM2.TO.QM1": "INACTIVE"}
    never = channels[1]
    assert never["chltype"] == "RCVR" and never["msgs"] is None and never["last_msg"] is None


def test_status_text_is_one_line_per_object(estate):
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--queue", "QM2",
                         "--channel", "QM1.*")
    assert status == 0
    [q, c] = out.splitlines()
    assert q.startswith("QM1  QUEUE(QM2)  CURDEPTH(3)  IPPROCS(0)") and "MONQ(MEDIUM)" in q
    assert c.startswith("QM1  CHANNEL(QM1.TO.QM2)  CHLTYPE(SDR)  STATUS(STOPPED)")


@pytest.mark.parametrize("words, objects", [
    (("--queue", "APP.*"), []),                       # generic, nothing: 0, no line
    (("--queue", "SYSTEM.DEAD.LETTER.QUEUE"), ["SYSTEM.DEAD.LETTER.QUEUE"]),  # named: shown
    (("--queue", "S*"), []),                          # generic: SYSTEM.* only with --system
    (("--queue", "S*", "--system"), [f"SYSTEM.{n}" for n in (
        "ADMIN.ACCOUNTING.QUEUE", "ADMIN.ACTIVITY.QUEUE", "ADMIN.CHANNEL.EVENT",
        "ADMIN.COMMAND.EVENT", "ADMIN.COMMAND.QUEUE", "ADMIN.CONFIG.EVENT",
        "ADMIN.LOGGER.EVENT", "ADMIN.PERFM.EVENT", "ADMIN.PUBSUB.EVENT", "ADMIN.QMGR.EVENT",
        "ADMIN.STATISTICS.QUEUE", "ADMIN.TRACE.ACTIVITY.QUEUE", "ADMIN.TRACE.ROUTE.QUEUE",
        "AUTH.DATA.QUEUE", "BROKER.ADMIN.STREAM", "BROKER.CONTROL.QUEUE",
        "BROKER.DEFAULT.STREAM", "BROKER.DEFAULT.SUBPOINT",
        "BROKER.INTER.BROKER.COMMUNICATIONS", "CHANNEL.INITQ", "CHANNEL.SYNCQ",
        "CHLAUTH.DATA.QUEUE", "CICS.INITIATION.QUEUE", "CLUSTER.COMMAND.QUEUE",
        "CLUSTER.HISTORY.QUEUE", "CLUSTER.REPOSITORY.QUEUE", "CLUSTER.TRANSMIT.QUEUE",
        "DDELAY.LOCAL.QUEUE", "DEAD.LETTER.QUEUE", "DEFAULT.INITIATION.QUEUE",
        "DEFAULT.LOCAL.QUEUE", "DURABLE.SUBSCRIBER.QUEUE", "HIERARCHY.STATE",
        "INTER.QMGR.CONTROL", "INTER.QMGR.FANREQ", "INTER.QMGR.PUBS", "PENDING.DATA.QUEUE",
        "PROTECTION.ERROR.QUEUE", "PROTECTION.POLICY.QUEUE", "RETAINED.PUB.QUEUE",
        "SELECTION.EVALUATION.QUEUE", "SELECTION.VALIDATION.QUEUE")]),
    # a generic name that asks for SYSTEM.* itself is answered without --system
    (("--queue", "SYSTEM.ADMIN.C*"),
     ["SYSTEM.ADMIN.CHANNEL.EVENT", "SYSTEM.ADMIN.COMMAND.EVENT", "SYSTEM.ADMIN.COMMAND.QUEUE",
      "SYSTEM.ADMIN.CONFIG.EVENT"]),
    (("--channel", "*"), ["QM1.TO.QM2", "QM2.TO.QM1"]),  # only channels
])
def test_status_selects_what_is_named(estate, words, objects):
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--json", *words)
    assert status == 0 and [o["name"] for o in lines(out)] == objects


def test_the_command_queue_is_open_once_for_input_by_the_command_server(estate):
    # status's own PCF commands are got by the command server: its one handle, not two
    status, out, _ = run("status", "--network", estate, "-m", "QM1", "--json", "--queue",
                         "SYSTEM.ADMIN.COMMAND.QUEUE")
    assert status == 0
    [queue] = lines(out)
    assert (queue["ipprocs"], queue["opprocs"], queue["curdepth"]) == (1, 0, 0)


def test_status_exit_statuses(estate, tmp_path):
    status, out, err = run("status", "--network", estate, "-m", "QM1", "--queue", "NOPE",
                           "--queue", "QM2")
    assert status == 1 and out.startswith("QM1  QUEUE(QM2)")
    assert err == "mqroute: status: queue NOPE on QM1: MQRC_UNKNOWN_OBJECT_NAME (2085)\n"
    status, _, err = run("status", "--network", estate, "-m", "QM1", "--channel", "NOPE")
    assert status == 1 and "MQRCCF_CHANNEL_NOT_FOUND (4032)" in err
    status, _, err = run("status", "--network", estate, "-m", "QM9")
    assert status == 2 and "MQRC_Q_MGR_NAME_ERROR (2058)" in err and err.count("\n") == 1
    assert run("status", "--network", estate)[0] == 0  # the first queue manager
    status, _, err = run("status", "-m", "QM1", "--network", estate, "-c")
    assert status == 2 and "no meaning with --network" in err
    status, _, err = run("status", "--network", str(tmp_path), "-m", "QM1")
    assert status == 2 and "not an estate" in err
    for option in ("--queue", "--channel"):
        status, out, err = run("status", "--network", estate, "-m", "QM1", option, "")
        assert (status, out) == (2, "") and f"{option} needs a name" in err


def test_status_changes_nothing(estate):
    before = {p: p.read_text() for p in Path(estate).rglob("*") if p.suffix == ".dmp"}
    defs = {p: p.read_text() for p in Path(estate).rglob("definitions.mqsc")}
    run("status", "--network", estate, "-m", "QM1")
    run("config", "--network", estate, "-m", "QM1")
    run("audit", "--network", estate, "-m", "QM1")
    assert {p: p.read_text() for p in Path(estate).rglob("*") if p.suffix == ".dmp"} == before
    assert {p: p.read_text() for p in Path(estate).rglob("definitions.mqsc")} == defs
    assert "MQROUTE.ADMIN" not in "".join(defs.values())


def test_config_writes_mqsc_that_reads_back_to_the_same_definitions(estate, tmp_path):
    status, out, _ = run("config", "--network", estate, "-m", "QM1")
    assert status == 0 and "* Queue manager name: QM1" in out and " CMDLEVEL(940)" in out
    assert "DEFINE QREMOTE('TARG.AT.QM2')" in out and "STOP CHANNEL" not in out
    assert "SYSTEM.DEFAULT.LOCAL.QUEUE" not in out
    status, everything, _ = run("config", "--network", estate, "-m", "QM1", "--system")
    assert "SYSTEM.DEFAULT.LOCAL.QUEUE" in everything
    (tmp_path / "qm1.mqsc").write_text(out)
    assert run("sim", "init", str(tmp_path / "again"), str(tmp_path / "qm1.mqsc"))[0] == 0
    _, again, _ = run("config", "--network", str(tmp_path / "again"), "-m", "QM1")
    assert again == out


def _config_round_trip(network) -> None:
    from traceroute.mq.admin import Admin, PCFOverQueues
    from traceroute.mq.config import collect_config
    from traceroute.mq.transport import SimTransport
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator
    from traceroute.status.attributes import table_for, to_parameters

    sim = Simulator(network, seed=1)
    attach(sim)
    for name, qm in sim.network.qmgrs.items():
        admin = Admin(PCFOverQueues(SimTransport(sim, name)))
        text = _config_text(collect_config(admin))
        admin.close()
        back = parse_mqsc(text, source="config").qmgrs[name]
        table = table_for("QMGR")
        readonly = {k for k, a in table.items() if a.readonly}
        assert {k: v for k, v in back.attrs.items() if k not in readonly} == \
            {k: v for k, v in {**_qmgr_defaults(), **qm.attrs}.items()
             if k in table and k not in readonly}, name
        for store, again in ((qm.queues, back.queues), (qm.channels, back.channels)):
            for key, obj in dict.items(store):
                if obj.get("DEFTYPE") == "TEMPDYN":
                    continue
                twin = again.get(key)
                assert twin is not None and twin.kind == obj.kind, (name, key)
                mine = obj.effective()
                left = set(to_parameters(obj.kind, mine)[1])
                assert {k: v for k, v in twin.effective().items() if k not in left} == \
                    {k: v for k, v in mine.items() if k not in left}, (name, key)


def _config_text(config) -> str:
    from mqroute.commands.config import config_text

    return config_text(config)


def _qmgr_defaults():
    from traceroute.sim.crtmqm import QMGR_DEFAULTS

    return QMGR_DEFAULTS


@pytest.mark.parametrize("kind, faults", [
    ("hub", {"stopped_channel": 1, "remote_def_no_channel": 1}),
    ("mesh", {"alias_loop": 1}),
    ("cluster", None),
    ("mixed", None),
])
def test_config_round_trip_over_generated_estates(kind, faults):
    from traceroute.sim.netgen import generate

    _config_round_trip(generate(kind, 6, seed=7, faults=faults).network)


@pytest.mark.parametrize("kind, faults", [
    ("hub", {"stopped_channel": 1, "remote_def_no_channel": 1, "alias_loop": 1}),
    ("mesh", {"stopped_channel": 1}),
    ("cluster", None),
])
def test_audit_m_finds_what_audit_finds_over_the_mqsc_files(tmp_path, kind, faults):
    from traceroute.sim.mqsc import to_mqsc
    from traceroute.sim.netgen import generate

    network = generate(kind, 6, seed=3, faults=faults).network
    path = tmp_path / "estate.mqsc"
    path.write_text(to_mqsc(network))
    from_files = run("audit", "--mqsc", str(path), "--json")
    assert run("sim", "init", str(tmp_path / "e"), str(path))[0] == 0
    qmgrs = [w for q in network.qmgrs for w in ("-m", q)]
    live = run("audit", "--network", str(tmp_path / "e"), *qmgrs, "--json")
    assert live[0] == from_files[0]
    assert [(f["kind"], f["queue_manager"], f["objects"]) for f in lines(live[1])] == \
        [(f["kind"], f["queue_manager"], f["objects"]) for f in lines(from_files[1])]
    assert len(lines(live[1])) > 0 or faults is None


def test_trace_explains_a_stuck_message_by_what_is_true_now(estate):
    status, out, err = run("trace", "--network", estate, "-m", "QM1", "-q", "TARG.AT.QM2")
    assert status == 4 and "Now:" not in out  # standard output stays dspmqrte's
    assert err.startswith("mqroute: trace: now: channel QM1.TO.QM2 is STOPPED; transmission "
                          "queue QM2 holds 4 messages, the oldest ")
    status, out, err = run("trace", "--network", estate, "-m", "QM1", "-q", "TARG.AT.QM2",
                           "--json")
    [document] = lines(out)
    live = document["live_status"]
    assert [o["object_type"] for o in live] == ["queue", "channel"]
    assert list(live[0]) == QUEUE_KEYS and list(live[1]) == CHANNEL_KEYS
    assert live[1]["status"] == "STOPPED" and live[0]["curdepth"] == 5
    assert "now: channel QM1.TO.QM2 is STOPPED" in err


def test_show_and_follow_explain_with_network(estate, tmp_path):
    save = tmp_path / "reports.dmp"
    assert run("trace", "--network", estate, "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
               "ACTIV.REPLY.Q", "--save", str(save))[0] == 4
    status, out, _ = run("show", str(save))
    assert "Now:" not in out  # files alone: nothing asked
    status, out, _ = run("show", str(save), "--network", estate, "--json")
    [document] = lines(out)
    assert document["live_status"][1]["status"] == "STOPPED"
    # follow: activity trace of the same stuck message, explained by the estate now
    from importlib import resources

    from pcf.mqmd import MQMD
    from traceroute.sim.activity_trace import ActivityTracer
    from traceroute.sim.mqsc import parse_mqsc
    from traceroute.sim.simulator import Simulator

    text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
    sim = Simulator(parse_mqsc(text + "\n* Queue manager name: QM1\nALTER QMGR ACTVTRC(ON)\n"),
                    seed=1)
    tracer = ActivityTracer(sim)
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.put("QM1", "TARG.AT.QM2", MQMD(), b"real")
    sim.run()
    sim.disconnect_all()  # the activity trace of a connection is written when it ends
    dump = tmp_path / "trace.dmp"
    dmpmqmsg.write_file(dump, [dmpmqmsg.DumpedMessage(md, d) for md, d in tracer.messages()])
    status, out, _ = run("follow", str(dump), "--network", estate)
    assert status == 4
    assert "Now: channel QM1.TO.QM2 is STOPPED; transmission queue QM2 holds" in out
    status, out, _ = run("follow", str(dump), "--network", estate, "--json")
    assert lines(out)[0]["live_status"][1]["name"] == "QM1.TO.QM2"


def test_an_unreachable_queue_manager_does_not_stop_the_show(tmp_path, monkeypatch):
    from traceroute.mq import client

    def missing():
        raise client.PymqiMissing("pymqi is not installed: pip install 'mqroute[mq]'")

    monkeypatch.setattr(client, "load_pymqi", missing)  # as here: no MQ client library
    save = tmp_path / "r.dmp"
    run("sim", "init", str(tmp_path / "e"), "--network", "demo")
    run("sim", "runmqsc", str(tmp_path / "e"), "QM1", stdin="STOP CHANNEL(QM1.TO.QM2)\n")
    run("trace", "--network", str(tmp_path / "e"), "-m", "QM1", "-q", "TARG.AT.QM2", "-rq",
        "ACTIV.REPLY.Q", "--save", str(save))
    status, out, err = run("show", str(save), "-m", "QM1")  # real MQ: no client library here
    assert "AMQ8666: Queue 'QM2' on queue manager 'QM1'." in out or "QM2" in out
    assert "cannot ask QM1 why the message waits there" in err and "pymqi" in err
    assert status == 1  # the explanation could not be had: reported as an input problem
