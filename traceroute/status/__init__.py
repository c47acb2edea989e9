"""Live status and configuration of queue managers, as typed values (pure: no I/O).

`values` holds what a queue manager says now (QueueStatus, ChannelStatus, HandleStatus,
QmgrStatus, ResetStats, Definition, ClusterQmgr); `commands` builds the PCF commands that
ask for them (and reads a failed response: CommandFailed); `responses` turns values into
response parameters and back, so a simulated command server and a client of a real one share one
reading of IBM's PCF reference; `attributes` maps MQSC keywords to PCF parameters; `words`
MQ's words for status values. The transports that carry the commands are in
`traceroute.mq` (the administration client) and `traceroute.sim.cmdserver`.
"""

from traceroute.status.commands import CommandFailed, failure_of, matches, reason_text
from traceroute.status.responses import ResponseError
from traceroute.status.values import (
    ChannelStatus,
    ClusterQmgr,
    Definition,
    HandleStatus,
    QmgrStatus,
    QueueStatus,
    ResetStats,
)

__all__ = ["ChannelStatus", "ClusterQmgr", "CommandFailed", "Definition", "HandleStatus",
           "QmgrStatus", "QueueStatus", "ResetStats", "ResponseError", "failure_of", "matches",
           "reason_text"]
