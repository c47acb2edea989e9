"""The estate folder on disk: a lock, file names from MQ names, and all-or-nothing saves.

One command at a time: `Folder.locked()` holds an exclusive lock (fcntl.flock on DIR/.lock)
for the whole command, waiting up to `wait` seconds for another command to finish. A save
writes every changed file beside its target (NAME.new, fsynced), then a journal DIR/.commit
naming them (written beside and renamed into place, so it is whole or absent), then renames
each into place and removes the journal. A save interrupted before the journal exists
changes nothing (the .new files are swept at the next open); one interrupted after it is
finished by the next open (`recover`). Nothing is ever left half written.

File names: an MQ name may hold '/' and '%', so names are percent-encoded
(`file_name('A/B')` is 'A%2FB'); a name starting with '.' has that dot encoded too.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote

LOCK, JOURNAL = ".lock", ".commit"
_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"


class FolderError(OSError):
    """The folder cannot be used: locked too long, unreadable, not writable."""


def file_name(name: str) -> str:
    """An MQ name as a file name (percent-encoded; a leading '.' encoded)."""
    text = quote(name, safe=_SAFE)
    return "%2E" + text[1:] if text.startswith(".") else text


def mq_name(file: str) -> str:
    """The MQ name of a `file_name`."""
    return unquote(file)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_beside(path: Path, text: str) -> Path:
    """Write `text` to PATH.new (UTF-8, fsynced) and return that path."""
    new = path.with_name(path.name + ".new")
    new.parent.mkdir(parents=True, exist_ok=True)
    with open(new, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    return new


class Folder:
    """An estate folder: read its files, stage changes, commit them all at once."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._writes: dict[str, str] = {}
        self._removes: set[str] = set()

    def file(self, relative: str) -> Path:
        """The path of a file of the folder."""
        return self.path / relative

    def read(self, relative: str) -> str | None:
        """A file's text (None when it does not exist); FolderError naming the file and the
        byte when it is not UTF-8 text."""
        path = self.file(relative)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise FolderError(e.errno, e.strerror or str(e), str(path)) from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FolderError(0, f"not UTF-8 text (byte 0x{data[e.start]:02X} at offset "
                                 f"{e.start}): damaged?", str(path)) from None

    @contextlib.contextmanager
    def locked(self, wait: float = 60.0) -> Iterator[None]:
        """Hold the folder's exclusive lock (waiting up to `wait` seconds for it)."""
        import fcntl

        try:
            fd = os.open(self.file(LOCK), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise FolderError(e.errno, f"cannot lock the estate: {e.strerror}",
                              str(self.file(LOCK))) from None
        try:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise FolderError(
                            0, f"another command has been using the estate for over "
                               f"{wait:g} s (its lock is {self.file(LOCK)})",
                            str(self.path)) from None
                    time.sleep(0.05)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def recover(self) -> bool:
        """Finish a save a crash interrupted after its journal was written, and sweep .new
        files of one interrupted before; True if a save was finished."""
        journal = self.read(JOURNAL)
        finished = False
        if journal is not None:
            try:
                plan = json.loads(journal)
                writes, removes = list(plan["write"]), list(plan["remove"])
            except (ValueError, KeyError, TypeError):
                writes, removes = [], []  # a torn journal cannot exist (renamed whole)
            self._apply(writes, removes)
            self.file(JOURNAL).unlink(missing_ok=True)
            finished = True
        for stray in self.path.rglob("*.new"):
            stray.unlink(missing_ok=True)
        return finished

    def stage(self, relative: str, text: str) -> None:
        """Write this file's new text at the next commit."""
        self._removes.discard(relative)
        self._writes[relative] = text

    def remove(self, relative: str) -> None:
        """Remove this file at the next commit."""
        self._writes.pop(relative, None)
        self._removes.add(relative)

    @property
    def pending(self) -> bool:
        """True when something is staged."""
        return bool(self._writes or self._removes)

    def commit(self) -> None:
        """Make every staged change, all of them or (after a crash) none until `recover`."""
        if not self.pending:
            return
        writes = sorted(self._writes)
        removes = sorted(r for r in self._removes if self.file(r).exists())
        for relative in writes:
            write_beside(self.file(relative), self._writes[relative])
        plan = json.dumps({"write": writes, "remove": removes}, indent=1)
        new = write_beside(self.file(JOURNAL), plan)
        os.replace(new, self.file(JOURNAL))
        _fsync_dir(self.path)
        self._apply(writes, removes)
        self.file(JOURNAL).unlink(missing_ok=True)
        _fsync_dir(self.path)
        self._writes.clear()
        self._removes.clear()

    def _apply(self, writes: list[str], removes: list[str]) -> None:
        for relative in writes:
            target = self.file(relative)
            new = target.with_name(target.name + ".new")
            if new.exists():
                os.replace(new, target)
        for relative in removes:
            self.file(relative).unlink(missing_ok=True)
        dirs = {self.file(r).parent for r in (*writes, *removes)}
        for d in dirs:
            _fsync_dir(d)
