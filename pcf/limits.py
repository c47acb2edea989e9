"""MQ's own limits, which bound every read of untrusted input (sizes in bytes)."""

from __future__ import annotations

#: The largest message MQ can hold: MAXMSGL's upper limit, 100 MB.
MAX_MESSAGE_LENGTH = 104_857_600
#: The longest dmpmqmsg dump line read: a whole message's hex, and a little.
MAX_DUMP_LINE = 2 * MAX_MESSAGE_LENGTH + 4096
#: The most text one message of a dump may take, blank line to blank line (its data as
#: `X` lines of hex with their prefixes, and its descriptor).
MAX_DUMP_MESSAGE = 3 * MAX_MESSAGE_LENGTH
#: Deepest MQCFGR nesting decoded (activity data nests four deep).
MAX_DEPTH = 32


def describe(size: int) -> str:
    """'104857600 bytes (100 MB)' style text for a limit."""
    return f"{size} bytes ({size / 1048576:g} MB)" if size >= 1048576 else f"{size} bytes"
