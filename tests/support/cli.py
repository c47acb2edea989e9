"""Running `mqroute` in-process as a test's user would type it: status, stdout, stderr."""

from __future__ import annotations

import contextlib
import io
import sys

from mqroute.main import main


def run(*words: str, stdin: str = "") -> tuple[int, str, str]:
    """`mqroute WORDS...` with `stdin` as standard input; (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(words))
    finally:
        sys.stdin = old
    return status, out.getvalue(), err.getvalue()


def stopped_demo_estate(path: str) -> str:
    """An estate folder at `path`: the demo network with monitoring on, QM1.TO.QM2 stopped
    and 3 messages waiting for QM2 on its transmission queue."""
    assert run("sim", "init", path, "--network", "demo")[0] == 0
    assert run("sim", "runmqsc", path, "QM1", stdin="ALTER QMGR MONQ(MEDIUM) MONCHL(HIGH)\n"
               "STOP CHANNEL(QM1.TO.QM2)\n")[0] == 0
    assert run("sim", "put", path, "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "3")[0] == 0
    return path


def begun(stream) -> str:
    """What a child process wrote to the pipe `stream` up to a first whole line, read from
    the pipe's descriptor: a readline() would buffer more than the line, and communicate()
    reads the descriptor, so whatever sat in that buffer would be missing from its answer."""
    import os

    data = b""
    while b"\n" not in data:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            break
        data += chunk
    return data.decode()
