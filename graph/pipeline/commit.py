"""All of a run's tables, or none: outputs are written to a staging folder and renamed.

`staged_output` checks `--out` before anything runs (not inside an input, no input inside it,
not a folder something else wrote), gives the job a hidden staging folder beside `--out`, and
on success marks it as an analyze output and swaps it in; on failure it removes the staging
folder. An interrupted run leaves `--out` as the last complete run left it (and perhaps a
hidden `.NAME.mqroute-tmp-*` folder beside it). The folder operations go through Hadoop's
FileSystem API on the driver, so they work wherever Spark writes (local, HDFS, s3a, gs, abfs).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from graph.pipeline import storage

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
    """(parent folder, name) of the output folder, in Spark's spelling."""
    path = storage.spark_path(out).rstrip("/")
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

    def rename(self, src: str, dst: str) -> None:
        if not self._fs.rename(self._Path(src), self._Path(dst)):
            raise OSError(f"{dst}: could not rename {src} to it")

    def delete(self, uri: str) -> None:
        self._fs.delete(self._Path(uri), True)

    def touch(self, uri: str) -> None:
        self._fs.create(self._Path(uri), True).close()


def _check_replaceable(fs: _HadoopFS, out: str, target: str) -> None:
    if not fs.exists(target):
        return
    if not fs.is_dir(target):
        raise OutputError(f"--out {out} is a file, not a folder")
    names = fs.names(target)
    if names and MARKER not in names:
        raise OutputError(f"--out {out} holds files that `mqroute analyze` did not write "
                          f"(no {MARKER}); refusing to replace it: choose a new or empty folder")


@contextmanager
def staged_output(spark, inputs: Sequence[str], out: str) -> Iterator[str]:
    """A staging folder for the tables; swapped in for `out` when the block ends cleanly."""
    check_out(inputs, out)
    parent, name = _split(out)
    target = f"{parent}/{name}"
    try:
        fs = _HadoopFS(spark, target)
    except Exception as e:  # Spark cannot reach the store (no connector, bad settings)
        raise storage.StorageError(out, f"Spark cannot write there: "
                                        f"{storage.describe_error(e)}") from e
    _check_replaceable(fs, out, target)
    token = uuid.uuid4().hex[:12]
    staging = f"{parent}/.{name}.mqroute-tmp-{token}"
    try:
        yield staging
    except BaseException:
        _quietly(fs.delete, staging)
        raise
    fs.touch(f"{staging}/{MARKER}")
    _check_replaceable(fs, out, target)  # nothing else wrote there meanwhile
    old = f"{parent}/.{name}.mqroute-old-{token}"
    had_old = fs.exists(target)
    if had_old:
        fs.rename(target, old)
    try:
        fs.rename(staging, target)
    except BaseException:
        if had_old:
            _quietly(fs.rename, old, target)
        raise
    if had_old:
        _quietly(fs.delete, old)


def _quietly(call, *args) -> None:
    with suppress(Exception):  # clean-up after a failure: the failure itself is reported
        call(*args)
