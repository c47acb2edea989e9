"""MQ's administrative REST API as a `CommandTransport`: the Admin client over HTTP(S).

`RestCommands(url, qmgr, user=, password=)` sends each PCF command the administration client
asks (`traceroute.mq.admin.Admin`) as the REST API's JSON formatted MQSC command,
`POST {url}/ibmmq/rest/v2/admin/action/qmgr/{qmgr}/mqsc` with `"type": "runCommandJSON"`
(`traceroute.rest.bodies`), and turns the answer back into the PCF responses a command
server would have sent, so `status`, `config`, `audit -m` and `metrics` give over the REST
API exactly what they give over PCF.

The HTTP client is httpx (the `rest` extra). Stated behaviour:

* authentication: HTTP basic (`--user`, the password from MQROUTE_PASSWORD or the terminal);
  the `ibm-mq-rest-csrf-token` header on every POST (its value is not checked by MQ);
* TLS: the server's certificate checked against the system's CAs, or `ca` (a PEM file,
  `--ca`); `verify=False` (`--insecure`, named as such) checks nothing;
* timeouts: 10 s to connect, `wait` seconds (the command's, default 30) for the answer;
* retries: a connection that cannot be made is tried again twice (httpx's transport
  retries); a DISPLAY answered 502, 503 or 504 (a gateway or a queue manager starting) is
  sent again twice, after 0.5 s and 1 s; nothing that changes the queue manager (START,
  STOP, RESET) is ever sent twice;
* every failure is one line (`AdminError`): the URL, the HTTP status and MQ's message
  (401: the user was not accepted; 403 MQWB0100E: no CSRF header; 404 MQWB0009E: the queue
  manager is not known there), an answer that is not JSON, or not runCommandJSON's.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from urllib.parse import quote, urlsplit

from pcf.model import Message
from traceroute.mq.admin import WAIT, AdminError
from traceroute.rest import RestBodyError, request_body, responses_of
from traceroute.rest.errors import CSRF_HEADER, MQSC_PATH, failure_line

#: Seconds to make a connection.
CONNECT_TIMEOUT = 10.0
#: Times a connection that could not be made is tried again.
CONNECT_RETRIES = 2
#: Pauses before sending a DISPLAY again after a 502/503/504 answer.
BACKOFF = (0.5, 1.0)
RETRY_STATUSES = frozenset({502, 503, 504})
#: The most bytes of one answer read (a queue manager's objects, with room).
MAX_ANSWER = 256 << 20

__all__ = ["RestCommands", "mqsc_url"]


def mqsc_url(base: str, qmgr: str) -> str:
    """The MQSC resource of `qmgr` under the server `base` (https://host:9443, or a URL
    already ending in /ibmmq/rest/vN); '/', '%' and '.' in the name URL-encoded as IBM
    asks."""
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    name = quote(qmgr, safe="").replace(".", "%2E")
    tail = MQSC_PATH.format(qmgr=name)
    if "/ibmmq/rest/" in path:
        root = path[:path.index("/ibmmq/rest/")]
        tail = path[len(root):] + tail[len("/ibmmq/rest/v2"):]
        path = root
    return f"{parts.scheme}://{parts.netloc}{path}{tail}"


@dataclass
class RestCommands:
    """A CommandTransport to one queue manager through the REST API (see the module doc)."""

    url: str
    qmgr_name: str
    user: str = ""
    password: str = field(default="", repr=False)
    verify: bool | str = True        # True, a CA bundle file, or False (--insecure)
    tz: tzinfo = UTC                  # the queue manager's time zone (its dates and times)
    csrf_token: str = "mqroute"
    client: object | None = field(default=None, repr=False)  # an httpx.Client (tests)
    sleep: object = field(default=time.sleep, repr=False)
    #: What an answer held that PCF cannot carry here, one line per object and attribute
    #: (`traceroute.status.responses.definition_parameters`), for the user to be told.
    left_out: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.client is None:
            import httpx

            transport = httpx.HTTPTransport(retries=CONNECT_RETRIES, verify=self.verify)
            self.client = httpx.Client(transport=transport, verify=self.verify,
                                       follow_redirects=False)
        self.endpoint = mqsc_url(self.url, self.qmgr_name)

    def execute(self, request: Message, *, wait: float = WAIT) -> list[Message]:
        """Send the command; the PCF responses of its answer (AdminError: one line)."""
        try:
            body = request_body(request)
        except RestBodyError as e:
            raise AdminError(f"{self.endpoint}: {e}") from None
        reads = body.get("command") == "display"
        answer = self._post(body, wait, again=BACKOFF if reads else ())
        try:
            return responses_of(request, answer, qmgr=self.qmgr_name, tz=self.tz,
                                left_out=self.left_out)
        except RestBodyError as e:
            raise AdminError(f"{self.endpoint}: the answer is not runCommandJSON's: {e}") \
                from None

    def _post(self, body: dict, wait: float, again: tuple[float, ...]) -> object:
        import httpx

        headers = {CSRF_HEADER: self.csrf_token, "Accept": "application/json",
                   "Content-Type": "application/json"}
        timeout = httpx.Timeout(max(wait, 0.1), connect=CONNECT_TIMEOUT)
        pauses = list(again)
        while True:
            try:
                with self.client.stream("POST", self.endpoint,  # type: ignore[union-attr]
                                        content=json.dumps(body).encode(), headers=headers,
                                        auth=(self.user, self.password) if self.user else None,
                                        timeout=timeout) as response:
                    status = response.status_code
                    data = _read(response)
            except httpx.TimeoutException:
                raise AdminError(f"{self.endpoint}: no answer within {wait:g} s") from None
            except httpx.TransportError as e:
                raise AdminError(f"{self.endpoint}: cannot reach the REST API ({_reason(e)})"
                                 f"{_tls_hint(e)}") from None
            if status in RETRY_STATUSES and pauses:
                self.sleep(pauses.pop(0))  # type: ignore[operator]
                continue
            text = data.decode("utf-8", "replace")
            if not 200 <= status < 300:
                raise AdminError(failure_line(status, text, url=self.endpoint, user=self.user))
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                shown = text.strip()[:80]
                raise AdminError(f"{self.endpoint}: HTTP {status} but the answer is not JSON: "
                                 f"{shown!r} (is {self.url} the MQ REST API?)") from None

    def close(self) -> None:
        """Close the HTTP client."""
        close = getattr(self.client, "close", None)
        if callable(close):
            close()


def _read(response) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_ANSWER:
            raise AdminError(f"{response.request.url}: an answer of over {MAX_ANSWER >> 20} MiB:"
                             " not read")
        chunks.append(chunk)
    return b"".join(chunks)


def _reason(e: Exception) -> str:
    text = str(e) or type(e).__name__
    return text.splitlines()[0][:200]


def _tls_hint(e: Exception) -> str:
    text = str(e).lower()
    if "certificate" in text or "ssl" in text:
        return ("; the server's certificate was not accepted: give its CA with --ca FILE (or "
                "--insecure to check nothing)")
    return ""
