"""The live side of simulated queue managers: real-time monitoring and the command server.

`Monitor` watches a Simulator and keeps what DISPLAY QSTATUS and DISPLAY CHSTATUS show
(channel status, MONQ/MONCHL/MONACLS monitoring as seed 002 defines it, RESET QSTATS
counters); `CommandServer` answers PCF commands put to SYSTEM.ADMIN.COMMAND.QUEUE (or given
to `execute`) from it and from the definitions. `attach(sim)` gives a simulator both.
"""

from traceroute.sim.cmdserver.monitor import Monitor, channel_level, queue_level
from traceroute.sim.cmdserver.server import CommandServer
from traceroute.sim.simulator import Simulator


def attach(sim: Simulator) -> CommandServer:
    """A Monitor and a CommandServer for every queue manager of `sim` (the server's
    `.monitor` is the Monitor); the ones it has when it has them already."""
    for watcher in sim.watchers:
        if isinstance(watcher, CommandServer):
            return watcher
    return CommandServer(sim, Monitor(sim))


__all__ = ["CommandServer", "Monitor", "attach", "channel_level", "queue_level"]
