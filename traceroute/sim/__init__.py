"""A simulated network of queue managers, defined in MQSC, that handles messages as MQ does.

`mqsc` reads and writes MQSC into a `Network` of `QueueManager`s and `MQObject`s (`network`);
`resolve` resolves names as a queue manager does; `simulator` runs applications' puts, the
MCAs, trace-route handling (`tracestate`), reports and replies in virtual time; `netgen`
generates estates with planted faults, `corpus` the collected data of many traces. Pure
simulation, no real I/O besides reading MQSC files: may import `pcf`, `traceroute.records`
and the other value packages, never readers, transports, `graph` or the command line.
"""

from traceroute.sim.mqsc import parse_mqsc, read_mqsc, to_mqsc
from traceroute.sim.network import MQObject, Network, QueueManager
from traceroute.sim.resolve import Resolution, resolve
from traceroute.sim.simulator import ACTIVITY_QUEUE, Simulator

__all__ = ["ACTIVITY_QUEUE", "MQObject", "Network", "QueueManager", "Resolution", "Simulator",
           "parse_mqsc", "read_mqsc", "resolve", "to_mqsc"]
