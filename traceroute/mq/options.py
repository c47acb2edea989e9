"""How to reach a real queue manager, from command-line options: every option honoured or
refused with a sentence, never dropped (issue 17, class 12). Pure, apart from the password
prompt: the environment is passed in.

The rules:

* `--channel`, `--conname`, `--ccdt`, `--cipher`, `--key-repository` and `--cert-label` only
  mean something to a client connection, so each of them implies `-c`.
* `--channel` and `--conname` go together; with `--ccdt` neither may be given (the channel
  table chooses the channel), nor `--cipher` or `--cert-label` (the table's channel carries
  its own SSLCIPH and CERTLABL: set them there).
* `--cipher` and `--cert-label` without `--channel`/`--conname` take the channel from
  `MQSERVER` (``CHANNEL/TCP/host(port)``) when it is set; otherwise they are refused, since
  there is no channel definition to put them in.
* `--key-repository` is the key database as MQSSLKEYR names it (path and stem, e.g.
  ``/var/mqm/ssl/key``); it goes into MQSCO.KeyRepository and overrides MQSSLKEYR.
* `--user` works in local bindings and as a client (MQCSP). The password is
  $MQROUTE_PASSWORD, else asked for on the terminal without echo; with neither, the run
  stops with a sentence saying so. Passwords are never printed, logged or put in a repr.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Mapping
from dataclasses import replace

from traceroute.mq.transport import Connection

PASSWORD_VARIABLE = "MQROUTE_PASSWORD"
#: The longest channel name MQ allows.
CHANNEL_NAME_LENGTH = 20

__all__ = ["PASSWORD_VARIABLE", "ConnectionOptionError", "client_connection", "password_for"]


class ConnectionOptionError(ValueError):
    """Connection options that cannot be honoured together: says which and why."""


def _from_mqserver(value: str) -> tuple[str, str]:
    """(channel, conname) of an MQSERVER value 'CHANNEL/TCP/conname'."""
    parts = value.split("/", 2)
    if len(parts) != 3 or not parts[0] or not parts[2]:
        raise ConnectionOptionError(f"MQSERVER='{value}' is not CHANNEL/TCP/host(port)")
    if parts[1].upper() != "TCP":
        raise ConnectionOptionError(f"MQSERVER='{value}': transport {parts[1]} is not "
                                    "supported here (TCP only)")
    return parts[0], parts[2]


def client_connection(qmgr: str, *, client: bool = False, channel: str = "",
                      conname: str = "", ccdt: str = "", user: str = "", cipher: str = "",
                      key_repository: str = "", cert_label: str = "",
                      environ: Mapping[str, str] | None = None) -> Connection:
    """The Connection the options ask for (no password yet); ConnectionOptionError if none."""
    env = os.environ if environ is None else environ
    given = {"--channel": channel, "--conname": conname, "--ccdt": ccdt, "--cipher": cipher,
             "--key-repository": key_repository, "--cert-label": cert_label}
    client = client or any(given.values())
    if ccdt:
        clash = [name for name in ("--channel", "--conname", "--cipher", "--cert-label")
                 if given[name]]
        if clash:
            raise ConnectionOptionError(
                f"{' and '.join(clash)} cannot be used with --ccdt: the channel table "
                "chooses the channel, and its channel carries its own CONNAME, SSLCIPH and "
                "CERTLABL (set them there, or name the channel with --channel and --conname "
                "instead of --ccdt)")
    if bool(channel) != bool(conname):
        raise ConnectionOptionError("--channel and --conname go together (a client channel "
                                    "needs its name and its host(port))")
    if channel and len(channel) > CHANNEL_NAME_LENGTH:
        raise ConnectionOptionError(f"--channel {channel}: a channel name has at most "
                                    f"{CHANNEL_NAME_LENGTH} characters")
    if (cipher or cert_label) and not channel and not ccdt:
        server = env.get("MQSERVER", "")
        if not server:
            what = "--cipher" if cipher else "--cert-label"
            raise ConnectionOptionError(
                f"{what} needs a client channel to apply to: give --channel and --conname "
                "(or set MQSERVER=CHANNEL/TCP/host(port)); with a channel table (--ccdt, "
                "MQCCDTURL) set SSLCIPH/CERTLABL on its channel instead")
        channel, conname = _from_mqserver(server)
    return Connection(qmgr, client, channel, conname, ccdt, user, "", cipher,
                      key_repository=key_repository, cert_label=cert_label)


def _terminal() -> bool:
    """True when there is a terminal to ask for a password on (without echo)."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def password_for(conn: Connection, *, environ: Mapping[str, str] | None = None,
                 ask: Callable[[str], str] | None = None,
                 terminal: Callable[[], bool] = _terminal) -> Connection:
    """`conn` with its password: $MQROUTE_PASSWORD, else the terminal; else an error."""
    if not conn.user:
        return conn
    env = os.environ if environ is None else environ
    password = env.get(PASSWORD_VARIABLE, "")
    if not password:
        if not terminal():
            raise ConnectionOptionError(
                f"--user {conn.user}: no password: set {PASSWORD_VARIABLE} (there is no "
                "terminal to ask for it on)")
        try:
            password = (ask or getpass.getpass)(f"Password for {conn.user}: ")
        except (EOFError, KeyboardInterrupt):
            raise ConnectionOptionError(f"--user {conn.user}: no password given") from None
    return replace(conn, password=password)
