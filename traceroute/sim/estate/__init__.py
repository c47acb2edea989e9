"""A simulated estate folder: queue managers that live between commands.

`Estate.create(DIR, network)` makes the folder; `Estate.open(DIR)` (a context manager)
locks, loads and settles it, and saves what changed when the block ends. The folder is for
people to read and diff: definitions as MQSC, messages as dmpmqmsg dumps, channel and queue
state as JSON (`store` says file by file); `folder` keeps saves all-or-nothing and one
command at a time. `runmqsc` applies MQSC commands as runmqsc does; `apps` puts and gets as
amqsput and amqsget do.
"""

from traceroute.sim.estate.estate import Estate, EstateError, is_estate

__all__ = ["Estate", "EstateError", "is_estate"]
