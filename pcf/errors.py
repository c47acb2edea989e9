"""The one exception the codec raises for bad input."""

from __future__ import annotations


class PCFError(ValueError):
    """Malformed PCF (or MQMD) bytes: says where (byte offset, structure path) and why."""

    def __init__(self, reason: str, *, offset: int | None = None, path: str = "",
                 source: str | None = None) -> None:
        self.reason = reason
        self.offset = offset
        self.path = path
        self.source = source
        super().__init__(self._text())

    def _text(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.offset is not None:
            where.append(f"offset {self.offset}")
        if self.path:
            where.append(self.path)
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def in_source(self, source: str, base_offset: int = 0) -> PCFError:
        """The same error, located inside a named file at a base offset."""
        offset = None if self.offset is None else self.offset + base_offset
        return PCFError(self.reason, offset=offset, path=self.path, source=source)


class DumpFormatError(ValueError):
    """A dmpmqmsg dump file line that cannot be read: names the file and line."""

    def __init__(self, reason: str, *, line: int, source: str = "<dump>") -> None:
        self.reason = reason
        self.line = line
        self.source = source
        super().__init__(f"{source}, line {line}: {reason}")


class InputError(OSError):
    """A whole input that cannot be read (missing, empty, over MQ's limits): names it.

    An OSError, so that code that reports unreadable files reports these too; `strerror`
    is the reason, `filename` the input, `offset` the byte where reading stopped (if any).
    """

    def __init__(self, reason: str, *, source: str, offset: int | None = None) -> None:
        super().__init__(reason)
        self.strerror = reason
        self.filename = source
        self.reason = reason
        self.source = source
        self.offset = offset

    def __str__(self) -> str:
        at = f", offset {self.offset}" if self.offset is not None else ""
        return f"{self.source}{at}: {self.reason}"
