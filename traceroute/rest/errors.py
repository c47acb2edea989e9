"""The REST API's errors: an HTTP status and the error body, both ways.

IBM MQ documentation, "REST API error handling": an HTTP status outside 200-299 is an error,
and the body is a JSON object holding one array, `error`, of objects with `type` ('rest',
'pcf', 'java' ...), `messageId` (MQWBnnnnX), `message`, `explanation`, `action`, and for
types pcf, java and rest `completionCode` and `reasonCode`. The messages are IBM's (REST API
messages MQWB00xx/MQWB01xx): MQWB0100E the CSRF header omitted (with POST, PATCH, DELETE
the `ibm-mq-rest-csrf-token` header must be there, any value), MQWB0009E an unknown queue
manager; a failed HTTP basic authentication is 401.

`RestError` makes a body (the simulated server); `failure_line` reads a status and body
into one line a person can act on (the client), whatever the body holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pcf.text import printable

CSRF_HEADER = "ibm-mq-rest-csrf-token"
MQSC_PATH = "/ibmmq/rest/v2/admin/action/qmgr/{qmgr}/mqsc"

__all__ = ["CSRF_HEADER", "MQSC_PATH", "RestError", "failure_line"]


@dataclass(frozen=True)
class RestError:
    """An HTTP error the API answers with, and its error body."""

    status: int
    message: str
    message_id: str = ""
    explanation: str = ""
    action: str = ""
    reason: int | None = None

    def body(self) -> dict:
        """The error body."""
        item: dict = {"type": "rest", "message": self.message,
                      "explanation": self.explanation, "action": self.action}
        if self.message_id:
            item["messageId"] = self.message_id
        if self.reason is not None:
            item["completionCode"] = 2
            item["reasonCode"] = self.reason
        return {"error": [item]}

    @classmethod
    def csrf_missing(cls) -> RestError:
        """403: the POST came without the CSRF header."""
        return cls(403, f"MQWB0100E: The CSRF header {CSRF_HEADER} was omitted from the "
                        "request.", "MQWB0100E",
                   "The REST API request cannot be completed because the CSRF header was "
                   "omitted.", "Resubmit the request with the correct CSRF header.")

    @classmethod
    def not_authenticated(cls) -> RestError:
        """401: no user, an unknown one, or the wrong password."""
        return cls(401, "Not authenticated: the user name and password were not accepted.",
                   explanation="HTTP basic authentication failed.",
                   action="Resubmit the request with a user and password the server knows.")

    @classmethod
    def unknown_qmgr(cls, name: str) -> RestError:
        """404: the queue manager of the URL is not there."""
        return cls(404, f"MQWB0009E: Could not find the queue manager '{name}'.", "MQWB0009E",
                   "The queue manager does not exist, or is not on this server.",
                   "Resubmit the request naming a queue manager the server has.",
                   reason=2058)

    @classmethod
    def bad_request(cls, text: str) -> RestError:
        """400: a body the API cannot run."""
        return cls(400, text, explanation="The request could not be run as it is.",
                   action="Resubmit the request, correcting it.")


def failure_line(status: int, text: str, *, url: str, user: str = "") -> str:
    """One line saying why a request failed: the status, MQ's message if the body has one
    (any body: not JSON, HTML, cut off), and what to do for 401, 403 and 404."""
    detail = ""
    message_id = ""
    try:
        data = json.loads(text) if text.strip() else None
    except ValueError:
        data = None
    errors = data.get("error") if isinstance(data, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        first = errors[0]
        detail = str(first.get("message") or "")
        message_id = str(first.get("messageId") or first.get("msgId") or "")
    elif text.strip() and data is None:
        detail = "the answer is not JSON: " + repr(text.strip()[:80])
    hint = ""
    if status == 401:
        who = f"user {user}" if user else "no user"
        hint = f" ({who} not accepted: check --user and MQROUTE_PASSWORD)"
    elif status == 403 and message_id == "MQWB0100E":
        hint = " (the request lacked the CSRF header)"
    elif status == 403:
        hint = " (the user has no MQWebAdmin or MQWebAdminRO role?)"
    elif status == 404:
        hint = " (is the queue manager's name right, and on this mqweb server?)"
    said = f": {detail}" if detail else ""
    return printable(f"{url}: HTTP {status}{said}{hint}")
