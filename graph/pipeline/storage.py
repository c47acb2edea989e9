"""Where the analyze job's inputs and outputs live: plain paths and URIs, one small layer.

Plain paths and `file://` URIs use the operating system; `s3://` (also `s3a://`), `gs://`,
`abfs://`/`az://` and `hdfs://` go through pyarrow's filesystems, which take credentials and
endpoints from each store's standard environment and configuration (for S3 the AWS
variables, `AWS_ENDPOINT_URL` included). Listing is meant for the driver, `open_input` for
executors reading byte ranges. Every failure is a `StorageError` naming the URI and the reason.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import BinaryIO

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")
#: Schemes pyarrow knows under another name.
_ARROW_SCHEME = {"s3a": "s3", "s3n": "s3", "gcs": "gs", "abfss": "abfs", "az": "abfs"}
#: Schemes Spark (Hadoop) knows under another name.
_SPARK_SCHEME = {"s3": "s3a", "s3n": "s3a", "gcs": "gs", "az": "abfs"}


class StorageError(OSError):
    """A file or folder that cannot be listed or read: the URI and the reason."""

    def __init__(self, uri: str, reason: str):
        super().__init__(f"{uri}: {reason}")
        self.uri = uri
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Entry:
    """A file found by listing: its URI (or path), size and modification time (ns, or None)."""

    uri: str
    size: int
    mtime_ns: int | None = None


def scheme(uri: str) -> str:
    """The URI's scheme, lower case ('' for a plain path, 'file' for file://)."""
    m = _SCHEME.match(uri)
    return m.group(1).lower() if m else ""


def is_local(uri: str) -> bool:
    """True for a plain path or a file:// URI."""
    return scheme(uri) in ("", "file")


def local_path(uri: str) -> str:
    """The operating-system path of a plain path or file:// URI."""
    return uri[len("file://"):] if scheme(uri) == "file" else uri


def normalise(uri: str) -> str:
    """A comparable spelling: absolute real path for local files, one scheme name, no end '/'."""
    if is_local(uri):
        return os.path.realpath(local_path(uri))
    s = scheme(uri)
    rest = uri[len(s) + 3:].rstrip("/")
    return f"{_ARROW_SCHEME.get(s, s)}://{rest}"


def within(inner: str, outer: str) -> bool:
    """True when `inner` is `outer` or lies under it."""
    a, b = normalise(inner), normalise(outer)
    return a == b or a.startswith(b.rstrip("/") + "/")


def spark_path(uri: str) -> str:
    """The spelling Spark's (Hadoop's) readers and writers want (s3:// becomes s3a://)."""
    s = scheme(uri)
    if s == "":
        return os.path.abspath(uri)
    return f"{_SPARK_SCHEME.get(s, s)}://{uri[len(s) + 3:]}"


def join(uri: str, name: str) -> str:
    """`name` inside the folder `uri`."""
    return uri.rstrip("/") + "/" + name if not is_local(uri) else os.path.join(uri, name)


def reason(error: BaseException) -> str:
    """A short reason for a storage error (missing bucket, no permission, ...)."""
    text = str(error)
    checks = (("NO_SUCH_BUCKET", "the bucket does not exist"),
              ("ACCESS_DENIED", "no permission (access denied)"),
              ("AccessDenied", "no permission (access denied)"),
              ("INVALID_ACCESS_KEY_ID", "no permission (the access key is not known)"),
              ("SIGNATURE_DOES_NOT_MATCH", "no permission (bad secret key)"),
              ("403", "no permission (HTTP 403)"))
    for token, said in checks:
        if token in text:
            return f"{said}: {_first_line(text)}"
    if isinstance(error, FileNotFoundError):
        return "no such file or folder"
    if isinstance(error, PermissionError):
        return "no permission"
    if isinstance(error, IsADirectoryError):
        return "is a folder"
    return f"{type(error).__name__}: {_first_line(text)}"


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:300] if text.strip() else "(no detail)"


def _arrow_fs(root: str):
    """The pyarrow filesystem of a scheme://authority root (one per root and settings)."""
    names = FORWARDED_SETTINGS + LOCAL_CREDENTIALS
    return _cached_fs(root, tuple(os.environ.get(n) for n in names))


@lru_cache(maxsize=32)
def _cached_fs(root: str, settings: tuple):
    from pyarrow import fs as pafs

    return pafs.FileSystem.from_uri(root)[0]


def _arrow(uri: str):
    """(pyarrow filesystem, path inside it) of a remote URI."""
    s = scheme(uri)
    rest = uri[len(s) + 3:]
    arrow_uri = f"{_ARROW_SCHEME.get(s, s)}://{rest}"
    try:
        if s in ("s3", "s3a", "s3n", "gs", "gcs"):
            bucket = rest.split("/", 1)[0]
            return _arrow_fs(f"{_ARROW_SCHEME.get(s, s)}://{bucket}"), rest.rstrip("/")
        fs, path = _import_fs().FileSystem.from_uri(arrow_uri)
        return fs, path
    except ImportError as e:
        raise StorageError(uri, f"reading {s}:// needs pyarrow ({e})") from e
    except (OSError, ValueError) as e:
        raise StorageError(uri, reason(e)) from e


def _import_fs():
    from pyarrow import fs as pafs

    return pafs


def list_files(uri: str) -> list[Entry]:
    """The files of a file or a folder (recursively, sorted); hidden and `_` names skipped."""
    if is_local(uri):
        return _list_local(local_path(uri), uri)
    pafs = _import_fs()
    fs, path = _arrow(uri)
    try:
        info = fs.get_file_info(path)
    except OSError:
        info = None  # e.g. a bucket one may list but not HEAD: try listing it
    if info is not None and info.type == pafs.FileType.File:
        return [Entry(uri, info.size, info.mtime_ns)]
    try:
        infos = fs.get_file_info(pafs.FileSelector(path, recursive=True))
    except OSError as e:
        raise StorageError(uri, reason(e)) from e
    if not infos and (info is None or info.type == pafs.FileType.NotFound):
        raise StorageError(uri, "no such file or folder")
    base = uri.rstrip("/")
    out = []
    for i in infos:
        if i.type != pafs.FileType.File:
            continue
        relative = i.path[len(path.rstrip("/")) + 1:]
        if _hidden(relative):
            continue
        out.append(Entry(f"{base}/{relative}", i.size, i.mtime_ns))
    return sorted(out, key=lambda e: e.uri)


def _hidden(relative: str) -> bool:
    return any(part.startswith((".", "_")) for part in relative.split("/") if part)


def _list_local(path: str, uri: str) -> list[Entry]:
    try:
        st = os.stat(path)
    except OSError as e:
        raise StorageError(uri, reason(e)) from e
    if not os.path.isdir(path):
        return [Entry(uri, st.st_size, st.st_mtime_ns)]
    out = []
    errors: list[OSError] = []
    for root, dirs, files in os.walk(path, onerror=errors.append):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        for name in files:
            if name.startswith((".", "_")):
                continue
            full = os.path.join(root, name)
            try:
                st = os.stat(full)
            except OSError:
                continue  # vanished or unreadable: reported when it is read
            if os.path.isfile(full):
                out.append(Entry(full, st.st_size, st.st_mtime_ns))
    if errors and not out:
        raise StorageError(uri, reason(errors[0]))
    return sorted(out, key=lambda e: e.uri)


def stat(uri: str) -> Entry:
    """Size and modification time of one file."""
    if is_local(uri):
        try:
            st = os.stat(local_path(uri))
        except OSError as e:
            raise StorageError(uri, reason(e)) from e
        return Entry(uri, st.st_size, st.st_mtime_ns)
    pafs = _import_fs()
    fs, path = _arrow(uri)
    try:
        info = fs.get_file_info(path)
    except OSError as e:
        raise StorageError(uri, reason(e)) from e
    if info.type != pafs.FileType.File:
        raise StorageError(uri, "no such file")
    return Entry(uri, info.size, info.mtime_ns)


def open_input(uri: str) -> BinaryIO:
    """A seekable binary reader of one file (close it, or use it in a `with`)."""
    if is_local(uri):
        try:
            return open(local_path(uri), "rb")
        except OSError as e:
            raise StorageError(uri, reason(e)) from e
    fs, path = _arrow(uri)
    try:
        return fs.open_input_file(path)
    except OSError as e:
        raise StorageError(uri, reason(e)) from e


def open_output(uri: str) -> BinaryIO:
    """A binary writer of one new file (its folders made as needed); close it when done.
    For files a task writes into a staging folder, which the commit swaps in whole."""
    if is_local(uri):
        path = local_path(uri)
        try:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            return open(path, "wb")
        except OSError as e:
            raise StorageError(uri, reason(e)) from e
    fs, path = _arrow(uri)
    try:
        return fs.open_output_stream(path)
    except OSError as e:
        raise StorageError(uri, reason(e)) from e


def read_head(uri: str, size: int) -> bytes:
    """The first `size` bytes of a file."""
    with open_input(uri) as f:
        try:
            return f.read(size)
        except OSError as e:
            raise StorageError(uri, reason(e)) from e


def read_all(uri: str, limit: int) -> bytes:
    """A whole file, refused (StorageError) when it is larger than `limit` bytes."""
    with open_input(uri) as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise StorageError(uri, reason(e)) from e
    if len(data) > limit:
        raise StorageError(uri, f"larger than {limit} bytes; not read")
    return data



# --- folders of tables, local or remote, as the readers of analyze output see them ---------

class RemotePath:
    """A file or folder in a remote store (s3://, gs://, abfs://, hdfs:// ...), with the
    few `pathlib.Path` methods the readers of analyze output use (`/`, `exists`, `is_dir`,
    `is_file`, `iterdir`, `glob`, `name`), so they read a bucket as they read a folder;
    `dataset` opens a table in it. Failures are StorageError naming the URI."""

    def __init__(self, uri: str) -> None:
        self.uri = uri.rstrip("/") if len(uri.rstrip("/")) > len(scheme(uri)) + 3 else uri

    def __str__(self) -> str:
        return self.uri

    def __repr__(self) -> str:
        return f"RemotePath({self.uri!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RemotePath) and normalise(self.uri) == normalise(other.uri)

    def __hash__(self) -> int:
        return hash(normalise(self.uri))

    def __truediv__(self, name: str) -> RemotePath:
        return RemotePath(join(self.uri, str(name)))

    @property
    def name(self) -> str:
        """The last part of the URI."""
        return self.uri.rstrip("/").rsplit("/", 1)[-1]

    def arrow(self):
        """(pyarrow filesystem, path inside it)."""
        return _arrow(self.uri)

    def _info(self):
        fs, path = self.arrow()
        try:
            return fs.get_file_info(path)
        except OSError as e:
            raise StorageError(self.uri, reason(e)) from e

    def exists(self) -> bool:
        """True for a file or a folder (a prefix holding objects) that is there."""
        return self._info().type != _import_fs().FileType.NotFound

    def is_dir(self) -> bool:
        """True for a folder."""
        return self._info().type == _import_fs().FileType.Directory

    def is_file(self) -> bool:
        """True for a file."""
        return self._info().type == _import_fs().FileType.File

    def iterdir(self) -> list[RemotePath]:
        """What the folder holds, one level (sorted)."""
        pafs = _import_fs()
        fs, path = self.arrow()
        try:
            infos = fs.get_file_info(pafs.FileSelector(path, recursive=False))
        except OSError as e:
            raise StorageError(self.uri, reason(e)) from e
        return sorted((self / i.path.rstrip("/").rsplit("/", 1)[-1] for i in infos),
                      key=lambda p: p.uri)

    def glob(self, pattern: str) -> list[RemotePath]:
        """What the folder holds whose name matches `pattern` (one level)."""
        from fnmatch import fnmatchcase

        return [p for p in self.iterdir() if fnmatchcase(p.name, pattern)]


def location(uri: str | os.PathLike):
    """A folder or file of analyze output as its readers take it: a `pathlib.Path` for a
    plain path or file:// URI, a `RemotePath` for a store's URI."""
    from pathlib import Path

    if isinstance(uri, RemotePath | Path):
        return uri
    text = os.fspath(uri)
    return Path(local_path(text)) if is_local(text) else RemotePath(text)


def dataset(where, **options):
    """`pyarrow.dataset.dataset` of a local path or a RemotePath (`options` as it takes)."""
    import pyarrow.dataset as ds

    if isinstance(where, RemotePath):
        fs, path = where.arrow()
        try:
            return ds.dataset(path, filesystem=fs, **options)
        except OSError as e:
            raise StorageError(where.uri, reason(e)) from e
    return ds.dataset(where, **options)


#: Store settings executors take from the driver's environment (no secrets): endpoints,
#: regions, certificate bundles, and not asking the EC2 metadata service.
FORWARDED_SETTINGS = ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_REGION",
                      "AWS_DEFAULT_REGION", "AWS_CA_BUNDLE", "AWS_EC2_METADATA_DISABLED",
                      "AWS_PROFILE", "GOOGLE_CLOUD_PROJECT", "AZURE_STORAGE_ACCOUNT_NAME")
#: Credentials forwarded only in local mode (executors are this machine, this user).
LOCAL_CREDENTIALS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                     "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_STORAGE_ACCOUNT_KEY")


def forward_environment(spark) -> list[str]:
    """Give the executors' Python workers the driver's store settings; the names given.

    On a cluster, credentials come from the executors' own environment (instance role,
    workload identity, `spark.executorEnv.*`); in local mode they are forwarded too.
    """
    sc = spark.sparkContext
    names = list(FORWARDED_SETTINGS)
    if sc.master.startswith("local"):
        names += LOCAL_CREDENTIALS
    given = [n for n in names if n in os.environ]
    for name in given:
        sc.environment[name] = os.environ[name]
    return given


#: Hints for errors users meet when a store's connector is missing from Spark.
_HINTS = (("No FileSystem for scheme", "Spark has no connector for this store: add it, e.g. "
           "--packages org.apache.hadoop:hadoop-aws:3.4.1 for s3a://"),
          ("S3AFileSystem not found", "Spark has no s3a connector: add it, e.g. "
           "--packages org.apache.hadoop:hadoop-aws:3.4.1"))


def describe_error(e: BaseException) -> str:
    """One line for an error, Spark's Java errors by their Java exception (and a hint)."""
    java = getattr(e, "java_exception", None)
    raw = str(java.toString()) if java is not None else str(e)
    text = raw.strip().splitlines()
    first = next((t for t in text if t.strip()), type(e).__name__).strip()[:400]
    hint = next((h for token, h in _HINTS if token in raw), None)
    name = "" if java is not None else f"{type(e).__name__}: "
    return f"{name}{first}" + (f" ({hint})" if hint else "")
