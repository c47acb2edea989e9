"""MQ's administrative REST API as this project speaks it (pure: no I/O).

`bodies` turns the PCF commands the administration client asks (`traceroute.status.commands`)
into runCommandJSON request bodies and the answers back into the PCF responses a command
server would give, and the other way round for a server built on a command server;
`objects` does it for one object of a DISPLAY answer; `errors` is the API's error body and
the HTTP statuses it comes with. The HTTP client is `traceroute.mq.rest`, the simulated
server `traceroute.sim.rest`.
"""

from traceroute.rest.bodies import (
    RUN_COMMAND_JSON,
    command_of,
    request_body,
    response_body,
    responses_of,
)
from traceroute.rest.objects import RestBodyError

__all__ = ["RUN_COMMAND_JSON", "RestBodyError", "command_of", "request_body", "response_body",
           "responses_of"]
