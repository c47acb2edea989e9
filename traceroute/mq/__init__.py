"""Talking to queue managers: the I/O edge towards MQ.

`transport` is the small `Transport` protocol every queue-manager connection implements,
with `SimTransport` over the simulator; `client` is the thin transport to a real queue
manager through IBM's MQ client (imported lazily, so nothing else needs it installed);
`collect` sends trace-route messages and collects reports and replies under syncpoint;
`archive` appends what is collected to a dmpmqmsg dump, durable before each get commits.
May import every `traceroute` package below it (records, routes, sim); nothing in
records, routes or display imports this package.
"""

from traceroute.mq.archive import Archive, ArchiveError
from traceroute.mq.collect import Collection, Source, collect, send_trace
from traceroute.mq.transport import Connection, SimTransport, Transport, TransportError

__all__ = ["Archive", "ArchiveError", "Collection", "Connection", "SimTransport", "Source",
           "Transport", "TransportError", "collect", "send_trace"]
