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
