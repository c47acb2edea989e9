"""MQSD SubCorrelId: each publication of a subscription carries the subscription's
correlation identifier, generated (AMQX...) or given with MQSO_SET_CORREL_ID; given as
MQCI_NONE, each publication keeps the CorrelId it was published with (IBM's MQSD
SubCorrelId page) — what a reader of activity trace by subscription needs, since a trace
message's CorrelId is its connection's id."""

from __future__ import annotations

from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator


def test_generated_given_and_none():
    sim = Simulator(parse_mqsc("DEFINE QLOCAL(ANY)\n", qmgr="QM1"))
    topic = "prices/fruit"
    generated = sim.subscribe("QM1", topic).subscription
    given = sim.subscribe("QM1", topic, correl_id=b"MINE".ljust(24, b"\x00")).subscription
    kept = sim.subscribe("QM1", topic, correl_id=bytes(24)).subscription
    published = b"PUBLISHER".ljust(24, b"\x00")
    assert sim.publish("QM1", topic, MQMD(correl_id=published), b"x").ok
    sim.run()

    got = {name: sim.get("QM1", sub.dest)[0].correl_id
           for name, sub in (("generated", generated), ("given", given), ("kept", kept))}
    assert got["generated"].startswith(b"AMQX") and got["generated"] == generated.correl_id
    assert got["given"] == b"MINE".ljust(24, b"\x00")
    assert got["kept"] == published
