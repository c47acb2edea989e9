"""MQ's administrative REST API served from a simulated estate folder (`mqroute sim rest`).

One resource, as IBM documents it: `POST /ibmmq/rest/v2/admin/action/qmgr/{qmgrName}/mqsc`
with a JSON formatted MQSC command (`"type": "runCommandJSON"`, `traceroute.rest.bodies`),
answered by the queue manager's simulated command server (each request opens the estate
folder, as any command does, so the estate lives on between requests and other commands).
What the server checks, in the order mqweb does:

* HTTP basic authentication with the one user and password it was given: otherwise 401
  with a `WWW-Authenticate: Basic realm="IBM MQ"` header;
* the `ibm-mq-rest-csrf-token` header on the POST (any value): otherwise 403 MQWB0100E;
* the queue manager of the URL (URL-decoded): otherwise 404 MQWB0009E;
* the body: JSON (at most 1 MiB), runCommandJSON, a command this server offers: otherwise
  400 with a message saying what; `Content-Type` of the answer `application/json;
  charset=utf-8` (errors too: the error body of "REST API error handling").

Other paths are 404 and other methods on the resource 405, each with an error body. It
serves HTTP, or HTTPS with a certificate and key (`ssl_context`). Dates and times in the
answers are local time in the estate's zone (`sim init --qmgr-tz`), as a queue manager gives
its local time.
"""

from __future__ import annotations

import base64
import hmac
import json
import re
import threading
from collections.abc import Callable
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from traceroute.rest import RestBodyError, command_of, response_body
from traceroute.rest.errors import CSRF_HEADER, RestError
from traceroute.sim.estate import Estate, EstateError

#: The resource's path; the queue manager's name is URL-encoded in it.
RESOURCE = re.compile(r"^/ibmmq/rest/v[123]/admin/action/qmgr/(?P<qmgr>[^/]+)/mqsc/?$")
#: The largest request body read.
MAX_BODY = 1 << 20
REALM = "IBM MQ"

__all__ = ["MAX_BODY", "RESOURCE", "RestServer"]


class RestServer:
    """The REST API of one estate folder, on a socket (see the module doc)."""

    def __init__(self, estate: str | Path, *, host: str = "127.0.0.1", port: int = 0,
                 user: str, password: str, ssl_context=None,
                 log: Callable[[str], None] | None = None) -> None:
        self.estate = Path(estate)
        self.user = user
        self.password = password
        self.log = log
        self.tz = datetime.now().astimezone().tzinfo
        self.requests = 0
        server = self

        class Handler(_Handler):
            owner = server

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.httpd.daemon_threads = True
        if ssl_context is not None:
            self.httpd.socket = ssl_context.wrap_socket(self.httpd.socket, server_side=True)
        self.scheme = "https" if ssl_context is not None else "http"
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) listened on."""
        host, port = self.httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        """The server's URL (what `--rest` takes)."""
        host, port = self.address
        return f"{self.scheme}://{host}:{port}"

    def serve_forever(self) -> None:
        """Serve until `shutdown`."""
        self.httpd.serve_forever(poll_interval=0.2)

    def start(self) -> RestServer:
        """Serve in a thread (tests)."""
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop serving and close the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()

    # --- one request -------------------------------------------------------------------------

    def authenticated(self, header: str | None) -> bool:
        """True for HTTP basic authentication of this server's user and password."""
        if not header or not header.startswith("Basic "):
            return False
        try:
            text = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
        except ValueError:
            return False
        user, sep, password = text.partition(":")
        return bool(sep) and hmac.compare_digest(user.encode(), self.user.encode()) and \
            hmac.compare_digest(password.encode(), self.password.encode())

    def answer(self, qmgr: str, body: bytes) -> tuple[int, dict]:
        """(HTTP status, JSON answer) of one authenticated request with its CSRF header."""
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _error(RestError.bad_request("MQWB2004E: The body of the request could "
                                                "not be parsed (it is not JSON)."))
        try:
            command, names_only = command_of(data)
        except RestBodyError as e:
            return _error(RestError.bad_request(str(e)))
        try:
            with Estate.open(self.estate) as estate:
                if qmgr not in estate.sim.network.qmgrs:
                    return _error(RestError.unknown_qmgr(qmgr))
                responses = estate.server.execute(qmgr, command)
                tz = getattr(estate.server, "tz", None) or self.tz  # the estate's clocks
                return 200, response_body(command, responses, qmgr=qmgr, tz=tz,
                                          names_only=names_only)
        except EstateError as e:
            return _error(RestError(503, f"the estate cannot be opened now: {e}",
                                    explanation="Another command held it too long, or it is "
                                                "damaged.", action="Resubmit the request."))


def _error(error: RestError) -> tuple[int, dict]:
    return error.status, error.body()


class _Handler(BaseHTTPRequestHandler):
    owner: RestServer
    server_version = "mqroute-sim-rest"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        if self.owner.log is not None:
            self.owner.log(f"{self.address_string()} {format % args}")

    def _send(self, status: int, data: dict, headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json;charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(payload)

    def _body(self) -> bytes | None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            return None
        return self.rfile.read(length)

    def _route(self) -> str | None:
        match = RESOURCE.match(urlsplit(self.path).path)
        return unquote(match["qmgr"]) if match else None

    def do_POST(self) -> None:
        self.owner.requests += 1
        qmgr = self._route()
        if qmgr is None:
            self._send(*_error(RestError(404, f"{self.path}: no such resource here (this "
                                              "server offers /ibmmq/rest/v2/admin/action/qmgr/"
                                              "{qmgrName}/mqsc)")))
            return
        if not self.owner.authenticated(self.headers.get("Authorization")):
            self._send(*_error(RestError.not_authenticated()),
                       headers={"WWW-Authenticate": f'Basic realm="{REALM}"'})
            return
        if self.headers.get(CSRF_HEADER) is None:
            self._send(*_error(RestError.csrf_missing()))
            return
        body = self._body()
        if body is None:
            self._send(*_error(RestError(413, f"a request body of over {MAX_BODY} bytes (or "
                                              "no length): not read")),
                       headers={"Connection": "close"})
            return
        try:
            answer = self.owner.answer(qmgr, body)
        except Exception as e:  # a bug: an error body, never a traceback or a dead server
            answer = _error(RestError(500, f"MQWB0000E: An unexpected exception {type(e).__name__}"
                                           f" occurred: {e}"))
        self._send(*answer)

    def _not_allowed(self) -> None:
        if self._route() is None:
            self._send(*_error(RestError(404, f"{self.path}: no such resource here")))
        else:
            self._send(*_error(RestError(405, f"MQWB2005E: The {self.command} HTTP method is "
                                              "not allowed for this resource (POST is).")),
                       headers={"Allow": "POST"})

    do_GET = do_PUT = do_DELETE = do_PATCH = _not_allowed
