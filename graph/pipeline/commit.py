"""All of a run's tables, or none: outputs are written to a staging folder and renamed.

`staged_output` (Spark) and `staged_local` (one process) check `--out` before anything runs
(not inside an input, no input inside it, not a folder something else wrote), give the job a
hidden staging folder beside `--out`, and on success mark it as an analyze output and swap it
in; on failure (an error, Ctrl-C, SIGTERM) they remove the staging folder. `--out` that is a
symbolic link is written where it points (the link stays).

A run killed outright (SIGKILL, a lost machine) cannot clean up: its hidden folders are named
`.NAME.mqroute-tmp-HOST-PID-TOKEN` (and `-old-` while the previous tables are being swapped
out), and the next run on the same `--out` removes those whose process is gone (same host,
no such PID) or that are over a day old (another host), and, when a kill between the two
renames left `--out` missing, puts the previous complete tables back first. So `--out` is
always the last complete run and the folder beside it never grows. The folder operations go
through Hadoop's FileSystem API on the driver for Spark (local, HDFS, s3a, gs, abfs) and
through the operating system for one process.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from graph.pipeline import storage
from pcf.pids import alive

#: The file that marks a folder as written by `mqroute analyze` (and so safe to replace).
MARKER = "_MQROUTE_ANALYZE"


class OutputError(ValueError):
    """`--out` cannot be used (a usage error: exit status 2)."""


def check_out(inputs: Sequence[str], out: str) -> None:
    """Refuse an output inside an input, or an input inside the output."""
    for item in inputs:
        if storage.within(out, item):
            raise OutputError(f"--out {out} is inside the input {item}: the next run would read "
                              "its own tables; choose a folder outside the inputs")
        if storage.within(item, out):
            raise OutputError(f"the input {item} is inside --out {out}: writing the tables "
                              "would replace it; choose another --out")


def _split(out: str) -> tuple[str, str]:
    """(parent folder, name) of the output folder, in Spark's spelling (a local path with its
    symbolic links resolved: the tables go where a link points)."""
    path = storage.spark_path(os.path.realpath(storage.local_path(out))
                              if storage.is_local(out) else out).rstrip("/")
    parent, _, name = path.rpartition("/")
    if not name or not parent or parent.endswith(":/") or parent.endswith(":"):
        raise OutputError(f"--out {out} must be a folder below a parent folder or bucket")
    return parent, name


class _HadoopFS:
    """The few Hadoop FileSystem calls the commit needs, through the driver's JVM."""

    def __init__(self, spark, uri: str):
        jvm = spark.sparkContext._jvm
        self._Path = jvm.org.apache.hadoop.fs.Path
        self._fs = self._Path(uri).getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())

    def exists(self, uri: str) -> bool:
        return bool(self._fs.exists(self._Path(uri)))

    def is_dir(self, uri: str) -> bool:
        return bool(self._fs.getFileStatus(self._Path(uri)).isDirectory())

    def names(self, uri: str) -> list[str]:
        return [s.getPath().getName() for s in self._fs.listStatus(self._Path(uri))]

    def mtime(self, uri: str) -> float:
        return self._fs.getFileStatus(self._Path(uri)).getModificationTime() / 1000

    def rename(self, src: str, dst: str) -> None:
        if not self._fs.rename(self._Path(src), self._Path(dst)):
            raise OSError(f"{dst}: could not rename {src} to it")

    def delete(self, uri: str) -> None:
        self._fs.delete(self._Path(uri), True)

    def touch(self, uri: str) -> None:
        self._fs.create(self._Path(uri), True).close()

    def mkdir(self, uri: str) -> None:
        self._fs.mkdirs(self._Path(uri))


class _LocalFS:
    """The same calls on local paths (one-process runs)."""

    @staticmethod
    def _p(uri: str) -> str:
        return storage.local_path(uri)

    def exists(self, uri: str) -> bool:
        return os.path.lexists(self._p(uri))

    def is_dir(self, uri: str) -> bool:
        return os.path.isdir(self._p(uri))

    def names(self, uri: str) -> list[str]:
        return os.listdir(self._p(uri))

    def mtime(self, uri: str) -> float:
        return os.lstat(self._p(uri)).st_mtime

    def rename(self, src: str, dst: str) -> None:
        os.rename(self._p(src), self._p(dst))

    def delete(self, uri: str) -> None:
        path = self._p(uri)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.lexists(path):
            os.unlink(path)

    def touch(self, uri: str) -> None:
        with open(self._p(uri), "w"):
            pass

    def mkdir(self, uri: str) -> None:
        os.makedirs(self._p(uri))


def _check_replaceable(fs, out: str, target: str) -> None:
    if not fs.exists(target):
        return
    if not fs.is_dir(target):
        raise OutputError(f"--out {out} is a file, not a folder")
    names = fs.names(target)
    if names and MARKER not in names:
        raise OutputError(f"--out {out} holds files that `mqroute analyze` did not write "
                          f"(no {MARKER}); refusing to replace it: choose a new or empty folder")


#: Another host's leftovers are removed after this long (its processes cannot be asked).
STALE_SECONDS = 24 * 3600
_HOST = re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname() or "host")


def _token() -> str:
    return f"{_HOST}-{os.getpid()}-{uuid.uuid4().hex[:12]}"


def _left_by(name: str, prefix: str) -> tuple[str, int] | None:
    """(host, pid) of a leftover's name `prefix + HOST-PID-TOKEN`, or None when it is not
    one (an older run's name without them counts as another host's)."""
    if not name.startswith(prefix):
        return None
    parts = name[len(prefix):].rsplit("-", 2)
    if len(parts) == 3 and parts[0] and parts[1].isdigit():
        return parts[0], int(parts[1])
    return "", 0


def _gone(host: str, pid: int, age: float) -> bool:
    """Whether the run that left a folder is over: its process is gone, or it is another
    host's and over STALE_SECONDS old."""
    if host != _HOST:
        return age > STALE_SECONDS
    return not alive(pid)


def clean_leftovers(fs, parent: str, name: str, *, now: float | None = None) -> list[str]:
    """Remove what killed runs on `parent/name` left: staging folders, and previous tables
    a kill left half swapped (put back as `name` when `name` is missing); what was removed
    or restored, for the run to say."""
    now = time.time() if now is None else now
    target = f"{parent}/{name}"
    done: list[str] = []
    tmp, old = f".{name}.mqroute-tmp-", f".{name}.mqroute-old-"
    try:
        names = fs.names(parent)
    except Exception:  # an unlistable parent: the run itself will say why
        return done
    olds = []
    for entry in sorted(names):
        for prefix in (tmp, old):
            who = _left_by(entry, prefix)
            if who is None:
                continue
            path = f"{parent}/{entry}"
            with suppress(Exception):
                if not _gone(*who, now - fs.mtime(path)):
                    continue
                if prefix == old:
                    olds.append((fs.mtime(path), path))
                    continue
                fs.delete(path)
                done.append(f"removed {path} (left by a run that was killed)")
    for _, path in sorted(olds, reverse=True):   # the newest previous tables first
        with suppress(Exception):
            if not fs.exists(target):
                fs.rename(path, target)
                done.append(f"restored {target} from {path} (a run was killed while "
                            "swapping it)")
            else:
                fs.delete(path)
                done.append(f"removed {path} (left by a run that was killed)")
    return done


@contextmanager
def _staged(fs, inputs: Sequence[str], out: str, parent: str, name: str,
            progress=None) -> Iterator[str]:
    """The staging folder and the swap, on any of the file systems above."""
    target = f"{parent}/{name}"
    for line in clean_leftovers(fs, parent, name):
        if progress is not None:
            progress(f"mqroute: {line}")
    _check_replaceable(fs, out, target)
    token = _token()
    staging = f"{parent}/.{name}.mqroute-tmp-{token}"
    try:
        fs.mkdir(staging)
        yield staging
    except BaseException:
        _quietly(fs.delete, staging)
        raise
    fs.touch(f"{staging}/{MARKER}")
    _check_replaceable(fs, out, target)  # nothing else wrote there meanwhile
    old = f"{parent}/.{name}.mqroute-old-{token}"
    had_old = fs.exists(target)
    try:
        if had_old:
            fs.rename(target, old)
        try:
            fs.rename(staging, target)
        except BaseException:
            if had_old:
                _quietly(fs.rename, old, target)
            raise
    except BaseException:
        _quietly(fs.delete, staging)
        raise
    if had_old:
        _quietly(fs.delete, old)


@contextmanager
def staged_output(spark, inputs: Sequence[str], out: str, progress=None) -> Iterator[str]:
    """A staging folder for the tables (Spark); swapped in for `out` when the block ends
    cleanly."""
    check_out(inputs, out)
    parent, name = _split(out)
    target = f"{parent}/{name}"
    try:
        fs = _HadoopFS(spark, target)
    except Exception as e:  # Spark cannot reach the store (no connector, bad settings)
        raise storage.StorageError(out, f"Spark cannot write there: "
                                        f"{storage.describe_error(e)}") from e
    with _staged(fs, inputs, out, parent, name, progress) as staging:
        yield staging


def remove_folders(spark, uris: Sequence[str]) -> None:
    """Remove folders (and what they hold) through Spark's file system: scratch parts of
    the job inside its staging folder, before the commit."""
    for uri in uris:
        fs = _HadoopFS(spark, uri)
        if fs.exists(uri):
            fs.delete(uri)


@contextmanager
def staged_local(inputs: Sequence[str], out: str, progress=None) -> Iterator[str]:
    """A staging folder for the tables of a one-process run (a local `out`)."""
    check_out(inputs, out)
    target = os.path.realpath(storage.local_path(out)).rstrip(os.sep)
    parent, name = os.path.split(target)
    if not name:
        raise OutputError(f"--out {out} must be a folder below a parent folder")
    with _staged(_LocalFS(), inputs, out, parent, name, progress) as staging:
        yield staging


def _quietly(call, *args) -> None:
    with suppress(Exception):  # clean-up after a failure: the failure itself is reported
        call(*args)
