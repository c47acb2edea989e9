"""The `--save` dump: reports appended to a dmpmqmsg file, durable before their gets commit.

Rules (issue 17, class 6):

* An existing dump is never truncated or rewritten: records are appended (O_APPEND), so it
  stays one valid dmpmqmsg file holding the old and the new messages. A file that exists
  but does not look like a dump (its first line is not a dmpmqmsg record or comment) is
  refused before anything is got from a queue.
* Each message is written with one `write` and made durable with `fsync` (and, for a file
  it created, the folder's entry too) before `keep` returns; the caller commits the get
  only after that. Nothing is written until the first message, so `-n` or a run that
  collects nothing leaves the file as it was.
* A write that fails (a full disk, /dev/full, an I/O error) raises `ArchiveError`; what
  was half written of that message is cut off again (only bytes this run appended, never
  older ones), so the dump stays valid, and the caller backs the get out: the message
  stays on its queue.
* One writer at a time: the dump is locked (flock) while it is open; a second run saving
  to the same file is refused.
* A dump whose last record was torn by a process killed mid-write (it does not end with a
  blank line) gets a blank line before the next record, so new messages stay readable; the
  torn message was never committed and is still on its queue.
"""

from __future__ import annotations

import os
import stat

from pcf import dmpmqmsg
from pcf.mqmd import MQMD

__all__ = ["Archive", "ArchiveError"]

_RECORD_STARTS = ("*", "A ", "N", "X ", "S ", "T ")


class ArchiveError(OSError):
    """The dump cannot be opened, or a message could not be made durable in it."""


def _lock(fd: int, path: str) -> None:
    """One writer per dump: an exclusive lock (POSIX), held until the file is closed."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ArchiveError(f"--save {path}: another process is saving to this dump now; "
                           "wait for it, or name another file") from None
    except OSError:
        return  # a device or file system without locks (/dev/full, some network mounts)


class Archive:
    """A dmpmqmsg file that reports are appended to, each durable before `keep` returns."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.saved = 0
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise ArchiveError(f"--save {path}: {e.strerror or e}") from None
        try:
            _lock(self._fd, path)
            info = os.fstat(self._fd)
            self._regular = stat.S_ISREG(info.st_mode)
            self._created = self._regular and info.st_size == 0
            self._needs_header = info.st_size == 0
            self._separate = self._separator(info.st_size) \
                if self._regular and not self._needs_header else ""
        except ArchiveError:
            os.close(self._fd)
            raise
        except OSError as e:
            os.close(self._fd)
            raise ArchiveError(f"--save {path}: {e.strerror or e}") from None

    def _separator(self, size: int) -> str:
        """Check the existing file is a dump; what must go before the next record."""
        with open(self.path, "rb") as f:
            start = f.read(4096).decode("latin-1").lstrip(" \t\r\n")
            f.seek(max(0, size - 2))
            tail = f.read(2)
        if start and not start.startswith(_RECORD_STARTS):
            raise ArchiveError(f"--save {self.path}: the file exists and is not a dmpmqmsg "
                               "dump: refusing to add to it (name a new file or an earlier "
                               "--save dump)")
        if not start or tail.endswith(b"\n\n"):
            return ""
        return "\n" if tail.endswith(b"\n") else "\n\n"  # a torn last record: close it

    def record(self, label: str, md: MQMD, data: bytes) -> bytes:
        """The bytes appended for one message (a header first if the file is empty)."""
        text = dmpmqmsg.write([dmpmqmsg.DumpedMessage(md, data)])
        body = text.split("\n\n", 1)[1]  # without the tool's header comment
        head = dmpmqmsg.write([]) if self._needs_header else self._separate
        return (head + f"* From {label}\n" + body).encode("latin-1")

    def keep(self, label: str, md: MQMD, data: bytes) -> None:
        """Append one message and make it durable; ArchiveError (nothing kept) if it fails."""
        chunk = self.record(label, md, data)
        before = os.lseek(self._fd, 0, os.SEEK_END) if self._regular else 0
        try:
            self._write_all(chunk)
            os.fsync(self._fd)
            if self._created:
                self._sync_folder()
                self._created = False
        except OSError as e:
            self._cut_back(before)
            raise ArchiveError(f"--save {self.path}: {e.strerror or e}") from None
        self._needs_header, self._separate = False, ""
        self.saved += 1

    def _write_all(self, chunk: bytes) -> None:
        view = memoryview(chunk)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

    def _sync_folder(self) -> None:
        folder = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def _cut_back(self, size: int) -> None:
        """Remove what this failed write appended (never bytes that were there before)."""
        if not self._regular:
            return
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            pass

    def close(self) -> None:
        """Close the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
