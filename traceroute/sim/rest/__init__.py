"""MQ's administrative REST API served from a simulated estate folder (`mqroute sim rest`):
`RestServer` answers runCommandJSON through each queue manager's command server."""

from traceroute.sim.rest.server import RestServer

__all__ = ["RestServer"]
