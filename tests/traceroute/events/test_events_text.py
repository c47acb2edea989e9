"""amqsevt's `-o text` form (and its -d form) of events: the seed's two examples reproduced
line for line by the simulated situation they show, and every event kind the simulator
makes printed in all three amqsevt forms."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest

from pcf.mqmd import MQMD
from tests.conftest import VECTORS
from tests.traceroute.events.sim_events import read_events
from traceroute.display.amqsevt import dumps, from_json, iter_json, text, to_json
from traceroute.sim import Simulator, parse_mqsc
from traceroute.sim.events import SimEvents

SEED = VECTORS.parent / "seeds"


def _seed_examples() -> list[str]:
    files = sorted(SEED.glob("002_*.txt"))
    if not files:
        pytest.skip(f"seed 002 not found in {SEED}")
    body = files[0].read_text()
    return re.findall(r"```\n(\*\*\*\* Message \(320 Bytes\).*?)\n```", body, re.S)


def test_the_seed_examples_are_printed_line_for_line() -> None:
    examples = _seed_examples()
    assert len(examples) == 2
    net = parse_mqsc("ALTER QMGR LOCALEV(ENABLED)\n"
                     "DEFINE QALIAS(EVT.NO.BASE.QUEUE) TARGET(EVT.NOT.DEFINED)\n",
                     qmgr="V8003_A")
    sim = Simulator(net, seed=1, start=datetime(2015, 6, 17, 13, 47, 7, 20000))
    SimEvents(sim)
    sim.put("V8003_A", "EVT.NO.BASE.QUEUE", MQMD(), b"x")
    sim.run(until=341.16)  # 13:52:48.18
    sim.put("V8003_A", "EVT.NO.BASE.QUEUE", MQMD(), b"x")
    first, second = read_events(sim, "V8003_A")
    assert text(first) == examples[0]
    assert text(second, constants=True) == examples[1]


def _every_kind() -> list:
    """A day with an event of most kinds the simulator makes."""
    from traceroute.sim.failureday import failure_day

    sim = failure_day().sim
    out = []
    for qmgr in sim.network.qmgrs:
        for queue in ("SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT",
                      "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CONFIG.EVENT",
                      "SYSTEM.ADMIN.COMMAND.EVENT", "SYSTEM.ADMIN.LOGGER.EVENT"):
            out += read_events(sim, qmgr, queue)
    return out


def test_every_simulated_event_in_all_three_forms_and_back() -> None:
    events = _every_kind()
    assert len({(e.type, e.reason) for e in events}) >= 25
    for event in events:
        shown = text(event)
        assert shown.startswith("**** Message (") and "Event Type" in shown
        assert "MQCMD_" in text(event, constants=True)
        pretty, compact = dumps(event), dumps(event, compact=True)
        assert json.loads(pretty) == to_json(event) == json.loads(compact)
        [item] = list(iter_json(compact))
        assert to_json(item.event) == to_json(event)  # JSON read back: the same event
        assert to_json(from_json(json.loads(pretty))) == to_json(event)
