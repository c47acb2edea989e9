"""The event catalog: every event of seed 002's event chapters, its data as IBM lists it,
and the docs' table of what the simulator produces made from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pcf import mqc
from traceroute.events.catalog import (
    BY_NAME,
    EVENTS,
    NOT_SIMULATED_PARAMETERS,
    MissingParameter,
    build,
)
from traceroute.events.model import EVENT_QUEUES

ROOT = Path(__file__).resolve().parents[3]

#: The event names of the seed's summary table ("事件消息数据摘要"), in IBM's English.
SEED_EVENTS = {
    "Not Authorized (type 1)", "Not Authorized (type 2)", "Not Authorized (type 3)",
    "Not Authorized (type 4)", "Not Authorized (type 5)", "Not Authorized (type 6)",
    "Channel Activated", "Channel Auto-definition Error", "Channel Auto-definition OK",
    "Channel Blocked", "Channel Conversion Error", "Channel Not Activated", "Channel Started",
    "Channel Stopped", "Channel Stopped By User", "Command", "Create Object",
    "Change Object", "Delete Object", "Refresh Object", "Bridge Started", "Bridge Stopped",
    "Get Inhibited", "Put Inhibited", "Alias Base Queue Type Error",
    "Unknown Alias Base Queue", "Unknown Object Name", "Logger", "Queue Depth High",
    "Queue Depth Low", "Queue Full", "Queue Service Interval High",
    "Queue Service Interval OK", "Default Transmission Queue Type Error",
    "Default Transmission Queue Usage Error", "Queue Type Error", "Remote Queue Name Error",
    "Transmission Queue Type Error", "Transmission Queue Usage Error",
    "Unknown Default Transmission Queue", "Unknown Remote Queue Manager",
    "Unknown Transmission Queue", "Channel SSL Error", "Queue Manager Active",
    "Queue Manager Not Active",
    # listed in the seed's event types beside the summary: SSL warning, not available
    "Channel SSL Warning", "Channel Not Available",
    # the seed's authority configuration events ("权限配置事件")
    "Change Authority Record", "Delete Authority Record", "Refresh Authority Record",
}


def test_the_catalog_has_every_event_of_the_seed() -> None:
    assert set(BY_NAME) >= SEED_EVENTS
    for kind in EVENTS:
        assert kind.queue == EVENT_QUEUES[kind.type]
        assert kind.params[0].id in (mqc.MQCA_Q_MGR_NAME, mqc.MQCACF_EVENT_USER_ID,
                                     mqc.MQCACF_EVENT_Q_MGR, mqc.MQGACF_COMMAND_CONTEXT)
        assert len({p.name for p in kind.params}) == len(kind.params)


def test_build_gives_exactly_the_parameters_listed() -> None:
    kind = BY_NAME["Unknown Transmission Queue"]
    event = build(kind, "QM1", {"QName": "Q", "XmitQName": "X", "ApplType": 6,
                                "ApplName": "a"}, None)
    assert [p.parameter for p in event.data] == [
        mqc.MQCA_Q_MGR_NAME, mqc.MQCA_Q_NAME, mqc.MQCA_XMIT_Q_NAME, mqc.MQIA_APPL_TYPE,
        mqc.MQCACF_APPL_NAME]
    with pytest.raises(MissingParameter):
        build(kind, "QM1", {"QName": "Q", "ApplType": 6, "ApplName": "a"}, None)
    with pytest.raises(KeyError):
        build(kind, "QM1", {"QName": "Q", "XmitQName": "X", "ApplType": 6,
                            "ApplName": "a", "Nonsense": 1}, None)


def test_the_docs_say_which_events_the_simulator_makes_and_why_not() -> None:
    text = (ROOT / "docs" / "simulator.md").read_text()
    rows = dict(re.findall(r"^\| ([^|]+?) \| \d+ \| \w+ \| (.+) \|$", text, re.M))
    assert set(rows) == {k.name for k in EVENTS}
    for kind in EVENTS:
        if kind.simulated:
            assert rows[kind.name] == f"**not simulated**: {kind.simulated}"
        else:
            assert "not simulated" not in rows[kind.name]


def test_the_docs_list_the_parameters_the_simulator_never_fills_and_why() -> None:
    text = (ROOT / "docs" / "simulator.md").read_text()
    listed = dict(re.findall(r"^\* ([^,\n]+, \w+): (.+)$", text, re.M))
    for (event, param), why in NOT_SIMULATED_PARAMETERS.items():
        kind = BY_NAME[event]
        assert not kind.simulated  # an event it produces ...
        assert any(p.name == param and p.optional for p in kind.params)  # ... optionally
        assert listed[f"{event}, {param}"] == why
