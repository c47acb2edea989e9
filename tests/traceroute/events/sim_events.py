"""Reading the event queues of a simulated network back, for the event tests."""

from __future__ import annotations

from traceroute.display.amqsevt import to_json
from traceroute.events import Event, decode_event
from traceroute.sim import Simulator


def read_events(sim: Simulator, qmgr: str, queue: str = "SYSTEM.ADMIN.QMGR.EVENT",
                appl_name: str = "amqsevt") -> list[Event]:
    """Every event message on a queue, got (destructively) and decoded, oldest first."""
    out = []
    while (got := sim.get(qmgr, queue, appl_name=appl_name)) is not None:
        md, data = got
        out.append(decode_event(data, md, queue=queue))
    return out


def event_data(event: Event) -> dict:
    """The event's eventData as amqsevt -o json prints it."""
    return to_json(event)["eventData"]
