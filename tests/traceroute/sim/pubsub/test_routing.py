"""Publications between queue managers: proxy subscriptions in clusters (direct and topic
host routing) and hierarchies, scopes, and copies crossing the channels to the
subscribers' engines (SYSTEM.INTER.QMGR.PUBS) that publish them again."""

from __future__ import annotations

from importlib import resources

from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.pubsub import PROXY, proxies
from traceroute.sim.pubsub.routing import Origin, consider
from traceroute.sim.simulator import Simulator

EXAMPLE = resources.files("traceroute").joinpath("examples/pubsub.mqsc").read_text()


def cluster(route: str, hosts: str = "QMA") -> str:
    """Three members of cluster C; the clustered topic News defined on `hosts`."""
    out = []
    for q in ("QMA", "QMB", "QMC"):
        out += [f"* Queue manager name: {q}",
                f"DEFINE CHANNEL(TO.{q}) CHLTYPE(CLUSRCVR) CLUSTER(C) CONNAME('{q}')",
                f"DEFINE QLOCAL({q}.NEWS)",
                "ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)"]
        if q in hosts.split(","):
            out.append(f"DEFINE TOPIC(NEWS) TOPICSTR('News') CLUSTER(C) CLROUTE({route})")
    return "\n".join(out) + "\n"


def subscribe(net, qmgr: str, topic: str = "News/#") -> None:
    parse_mqsc(f"DEFINE SUB({qmgr}.S) TOPICSTR('{topic}') DEST({qmgr}.NEWS)\n", qmgr=qmgr,
               network=net)


def delivered(sim: Simulator) -> dict[str, int]:
    return {q: sim.depth(q, f"{q}.NEWS") for q in sim.network.qmgrs}


def test_direct_routing_proxies_to_every_member_and_delivers_through_the_cluster():
    net = parse_mqsc(cluster("DIRECT"))
    subscribe(net, "QMB")
    subscribe(net, "QMC", "News/Sport")
    sim = Simulator(net, seed=1)
    made = sim.pubsub.everything(sim.network)
    # every other member holds a proxy per topic string, to the subscriber's engine
    proxies_on = {q: sorted((s.topic, s.dest, s.dest_qmgr) for s in subs if s.proxy)
                  for q, subs in made.items()}
    assert proxies_on["QMA"] == [("News/#", "SYSTEM.INTER.QMGR.PUBS", "QMB"),
                                 ("News/Sport", "SYSTEM.INTER.QMGR.PUBS", "QMC")]
    assert proxies_on["QMC"] == [("News/#", "SYSTEM.INTER.QMGR.PUBS", "QMB")]
    assert sim.publish("QMA", "News/Sport", MQMD(), b"x").ok
    sim.run()
    assert delivered(sim) == {"QMA": 0, "QMB": 1, "QMC": 1}
    # a publication that came through the cluster is not passed round it again
    assert sim.publish("QMB", "News/Sport", MQMD(), b"y").ok
    sim.run()
    assert delivered(sim) == {"QMA": 0, "QMB": 2, "QMC": 2}


def test_topic_host_routing_goes_through_the_host():
    net = parse_mqsc(cluster("TOPICHOST", hosts="QMA"))
    subscribe(net, "QMC")
    sim = Simulator(net, seed=2)
    made = sim.pubsub.everything(sim.network)
    kinds = {q: sorted((s.via, s.dest_qmgr) for s in subs if s.proxy)
             for q, subs in made.items()}
    # the subscriber proxies to the host only; the other members send to the host
    assert kinds == {"QMA": [("cluster:C", "QMC")], "QMB": [("topichost:C", "QMA")],
                     "QMC": [("topichost:C", "QMA")]}
    assert sim.publish("QMB", "News/Politics", MQMD(), b"x").ok
    sim.run()
    assert delivered(sim) == {"QMA": 0, "QMB": 0, "QMC": 1}
    # the host received it (its engine published it again), the subscriber got one copy
    assert sim.depth("QMA", "SYSTEM.INTER.QMGR.PUBS") == 0
    assert sim.publish("QMC", "News/Politics", MQMD(), b"y").ok  # local sub: no echo back
    sim.run()
    assert delivered(sim)["QMC"] == 2


def test_hierarchy_proxies_across_the_tree():
    text = """\
* Queue manager name: TOP
DEFINE QLOCAL(LEFT) USAGE(XMITQ)
DEFINE CHANNEL(TOP.LEFT) CHLTYPE(SDR) XMITQ(LEFT) CONNAME('left')
DEFINE CHANNEL(LEFT.TOP) CHLTYPE(RCVR)
DEFINE QLOCAL(RIGHT) USAGE(XMITQ)
DEFINE CHANNEL(TOP.RIGHT) CHLTYPE(SDR) XMITQ(RIGHT) CONNAME('right')
DEFINE CHANNEL(RIGHT.TOP) CHLTYPE(RCVR)
* Queue manager name: LEFT
ALTER QMGR PARENT(TOP)
DEFINE QLOCAL(TOP) USAGE(XMITQ)
DEFINE CHANNEL(LEFT.TOP) CHLTYPE(SDR) XMITQ(TOP) CONNAME('top')
DEFINE CHANNEL(TOP.LEFT) CHLTYPE(RCVR)
* Queue manager name: RIGHT
ALTER QMGR PARENT(TOP)
DEFINE QLOCAL(TOP) USAGE(XMITQ)
DEFINE CHANNEL(RIGHT.TOP) CHLTYPE(SDR) XMITQ(TOP) CONNAME('top')
DEFINE CHANNEL(TOP.RIGHT) CHLTYPE(RCVR)
DEFINE QLOCAL(RIGHT.Q)
DEFINE SUB(R) TOPICSTR('Price/#') DEST(RIGHT.Q)
"""
    sim = Simulator(parse_mqsc(text), seed=3)
    made = sim.pubsub.everything(sim.network)
    assert [(s.qmgr, s.dest_qmgr, s.via) for q in ("TOP", "LEFT") for s in made[q]
            if s.proxy] == [("TOP", "RIGHT", "hierarchy"), ("LEFT", "TOP", "hierarchy")]
    # a sibling's publication goes up to the parent and down to the subscriber
    assert sim.publish("LEFT", "Price/Fruit", MQMD(), b"apples").ok
    sim.run()
    ((md, data),) = sim.browse("RIGHT", "RIGHT.Q")
    assert data == b"apples"
    # the copy came through two engines: LEFT's copy, TOP's copy, RIGHT's copy
    assert md.msg_id[4:8] == b"RIGH"


def test_scopes_keep_publications_and_subscriptions_at_home():
    net = parse_mqsc(cluster("DIRECT"))
    subscribe(net, "QMB")
    parse_mqsc("DEFINE SUB(LOCAL.ONLY) TOPICSTR('News/#') DEST(QMC.NEWS) SUBSCOPE(QMGR)\n",
               qmgr="QMC", network=net)
    parse_mqsc("DEFINE TOPIC(QUIET) TOPICSTR('News/Quiet') PUBSCOPE(QMGR)\n", qmgr="QMA",
               network=net)
    sim = Simulator(net, seed=4)
    assert not any(s.dest_qmgr == "QMC" for s in sim.pubsub.of(sim.network, "QMA"))
    assert sim.publish("QMA", "News/Quiet", MQMD(), b"x").ok  # PUBSCOPE(QMGR): stays
    sim.run()
    assert delivered(sim) == {"QMA": 0, "QMB": 0, "QMC": 0}
    considered = consider(sim.network, "QMA", "News/Quiet", MQMD(),
                          sim.pubsub.of(sim.network, "QMA"))
    assert [c.excluded for c in considered] == [mqc.MQFB_MSG_SCOPE_MISMATCH]
    # a publication from another queue manager is not for a SUBSCOPE(QMGR) subscription
    from_b = consider(sim.network, "QMC", "News/X", MQMD(), sim.pubsub.of(sim.network, "QMC"),
                      Origin("QMB", "cluster:C"))
    assert [(c.sub.name, c.excluded) for c in from_b if not c.sub.proxy] == \
        [("LOCAL.ONLY", mqc.MQFB_MSG_SCOPE_MISMATCH)]


def test_proxysub_force_proxies_without_a_subscription():
    net = parse_mqsc(cluster("DIRECT"))
    parse_mqsc("ALTER TOPIC(NEWS) PROXYSUB(FORCE)\n", qmgr="QMA", network=net)
    made = proxies(net, {})
    assert sorted((s.qmgr, s.topic, s.dest_qmgr) for subs in made.values() for s in subs) == \
        [("QMB", "News/#", "QMA"), ("QMC", "News/#", "QMA")]
    assert all(s.kind == PROXY and not s.durable for subs in made.values() for s in subs)


def test_the_example_estate_publishes_to_four_queue_managers():
    sim = Simulator(parse_mqsc(EXAMPLE, source="pubsub.mqsc"), seed=5)
    assert sim.publish("QMA", "Sport/Scores/Soccer", MQMD(priority=3), b"2-0").ok
    sim.run()
    depths = {(q, n): len(d) for (q, n), d in sim.queues.items() if d}
    assert depths == {("QMA", "A.SCORES"): 1, ("QMB", "B.SOCCER"): 1,
                      ("QMB", "SYSTEM.DEAD.LETTER.QUEUE"): 1, ("QMC", "C.SCORES"): 1,
                      ("QMD", "D.SCORES"): 1}
    assert not sim.pubsub.inflight  # every publication in flight arrived


def test_a_stopped_channel_keeps_the_copy_on_its_transmission_queue():
    sim = Simulator(parse_mqsc(EXAMPLE, source="pubsub.mqsc"), seed=6)
    sim.stop_channel("QMC", "QMC.QMD")
    sim.publish("QMA", "Sport/Scores/Soccer", MQMD(), b"2-0")
    sim.run()
    assert sim.depth("QMC", "QMD") == 1 and sim.depth("QMD", "D.SCORES") == 0
    assert len(sim.pubsub.inflight) == 1  # remembered until QMD's engine gets it
    sim.start_channel("QMC", "QMC.QMD")
    sim.run()
    assert sim.depth("QMD", "D.SCORES") == 1 and not sim.pubsub.inflight


def test_in_flight_publications_survive_between_runs():
    sim = Simulator(parse_mqsc(EXAMPLE, source="pubsub.mqsc"), seed=7)
    sim.stop_channel("QMC", "QMC.QMD")
    sim.publish("QMA", "Sport/Scores/Soccer", MQMD(), b"2-0")
    sim.run()
    state = sim.identity()
    assert state["pubsub"]["inflight"]
    later = Simulator(sim.network, seed=7)
    later.restore_identity(state)
    assert later.pubsub.inflight == sim.pubsub.inflight
