"""What became of a message followed through activity trace, and where it was last seen."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class JourneyVerdict(StrEnum):
    """The answer to "where is message X?" (issue 15's verdicts)."""

    CONSUMED = "consumed"            # a destructive get by a non-MCA application
    ON_QUEUE = "on_queue"            # put to a local queue, no consumer get seen
    ON_XMITQ = "on_xmitq"            # put to a transmission queue, no MCA get (channel down)
    IN_TRANSIT = "in_transit"        # the sending MCA got it, no put on the next qmgr seen
    DEAD_LETTERED = "dead_lettered"  # an MCA put it to the dead-letter queue (Format MQDEAD)
    PUT_FAILED = "put_failed"        # the put failed (CompCode 2): the Reason is the answer
    INCOMPLETE = "incomplete"        # records missing in between, and no final answer seen


@dataclass(frozen=True, slots=True)
class Location:
    """Where a message was last seen; `channel` only while it is in transit."""

    queue_manager: str | None = None
    queue: str | None = None
    channel: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        """The JSON object {queue_manager, queue, channel}."""
        return {"queue_manager": self.queue_manager, "queue": self.queue,
                "channel": self.channel}


#: Exit status of `mqroute follow` per verdict (the highest applicable wins: 6 > 5 > 4 > 3).
EXIT_STATUS = {
    JourneyVerdict.PUT_FAILED: 6, JourneyVerdict.DEAD_LETTERED: 5,
    JourneyVerdict.ON_XMITQ: 4, JourneyVerdict.IN_TRANSIT: 3, JourneyVerdict.INCOMPLETE: 3,
    JourneyVerdict.CONSUMED: 0, JourneyVerdict.ON_QUEUE: 0,
}


def exit_status(verdicts: Iterable[JourneyVerdict], *, unreadable: bool = False) -> int:
    """1 if input was unreadable, else 6/5/4/3 for the worst verdict, else 0."""
    if unreadable:
        return 1
    return max((EXIT_STATUS[v] for v in verdicts), default=0)
