"""Which arguments name inputs and which outputs, and the checks made before any work.

A command declares each path argument by its `type=`: `input_path` (a file or folder it
reads), `output_path` (a file it writes or appends to), `output_folder` (a folder it writes)
or `address` (a URL it connects to). The values parsed are `str`s marked with their role, so
`check_paths` finds them all whatever the options are called, and refuses, before the
command reads anything (exit status 2):

* an output that is one of the command's inputs, or lies inside an input folder, or is
  another output of the same run (compared by real path: symbolic links resolved, and a
  hard link to an input is the input); an output folder holding an input;
* a URI or URL with credentials in it (`s3://KEY:SECRET@bucket/...`): the message shows it
  with the credentials masked and says where they go instead (the store's environment; an
  HTTP endpoint's headers or the command's --user).

`-` (standard input or output) is neither checked nor compared.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from mqroute.errors import UsageError
from pcf.text import has_credentials, masked

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")
#: Schemes that name the same store.
_SAME_STORE = {"s3a": "s3", "s3n": "s3", "gcs": "gs", "abfss": "abfs", "az": "abfs"}


class PathArg(str):
    """A path or URI given on the command line, marked with its role."""

    role = ""


class InputPath(PathArg):
    """A file or folder the command reads."""

    role = "input"


class OutputPath(PathArg):
    """A file the command writes (or appends to)."""

    role = "output"


class OutputFolder(PathArg):
    """A folder the command writes its files in."""

    role = "output folder"


class Address(PathArg):
    """A URL the command connects to (never a file)."""

    role = "address"


def input_path(text: str) -> InputPath:
    """argparse type of an input file or folder (path or URI)."""
    return InputPath(text)


def output_path(text: str) -> OutputPath:
    """argparse type of an output file."""
    return OutputPath(text)


def output_folder(text: str) -> OutputFolder:
    """argparse type of an output folder."""
    return OutputFolder(text)


def address(text: str) -> Address:
    """argparse type of a URL the command connects to."""
    return Address(text)


def declared(args: argparse.Namespace) -> Iterator[tuple[str, PathArg]]:
    """(option, value) of every declared path argument of a parsed command line."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list | tuple) else [value]:
            if isinstance(item, PathArg):
                yield name, item


def plain(args: argparse.Namespace) -> argparse.Namespace:
    """The namespace with every declared path as a plain `str` again (after `check_paths`):
    a str subclass is not what Spark, pickling across processes or JSON expect."""
    for name, value in vars(args).items():
        if isinstance(value, PathArg):
            setattr(args, name, str(value))
        elif isinstance(value, list) and any(isinstance(v, PathArg) for v in value):
            setattr(args, name, [str(v) if isinstance(v, PathArg) else v for v in value])
        elif isinstance(value, tuple) and any(isinstance(v, PathArg) for v in value):
            setattr(args, name, tuple(str(v) if isinstance(v, PathArg) else v
                                      for v in value))
    return args


def _store(uri: str) -> str:
    """A comparable spelling of a path or URI: real absolute path, or scheme://rest."""
    m = _SCHEME.match(uri)
    if not m or m.group(1).lower() == "file":
        path = urlsplit(uri).path if m else uri
        return os.path.realpath(path)
    scheme = m.group(1).lower()
    return f"{_SAME_STORE.get(scheme, scheme)}://{uri[m.end():].rstrip('/')}"


def _identity(spelling: str) -> tuple[int, int] | None:
    """(device, inode) of an existing local file, to see hard links as the same file."""
    if "://" in spelling:
        return None
    try:
        st = os.stat(spelling)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _inside(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer.rstrip("/") + "/")


def option_names(parser: argparse.ArgumentParser) -> dict[str, str]:
    """dest -> how the command line spells it (the long option, or the metavar); an old
    spelling kept hidden (help SUPPRESS) never names a destination its new one serves."""
    names = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        spelled = (longs or action.option_strings or [None])[0]
        if spelled is None:
            metavar = action.metavar
            spelled = metavar if isinstance(metavar, str) else action.dest.upper()
        if action.help != argparse.SUPPRESS or action.dest not in names:
            names[action.dest] = spelled
    return names


def check_paths(args: argparse.Namespace, names: dict[str, str] | None = None) -> None:
    """Refuse (UsageError) what `declared` arguments may not be: see the module. `names`
    (from `option_names`) spells the options in the messages."""
    names = names or {}

    def flag(dest: str) -> str:
        return names.get(dest, "--" + dest.replace("_", "-"))

    given = [(flag(dest), value) for dest, value in declared(args) if value != "-"]
    for opt, value in given:
        if has_credentials(value):
            raise UsageError(f"{opt} {masked(value)}: credentials do not go in a URI (they "
                             "would be shown in process lists, shell history and logs); "
                             + _where_credentials_go(value))
    files = [(opt, value, _store(value)) for opt, value in given
             if not isinstance(value, Address)]
    inputs = [f for f in files if isinstance(f[1], InputPath)]
    by_identity = {}
    for opt, value, spelling in inputs:
        ident = _identity(spelling)
        if ident is not None:
            by_identity[ident] = (opt, value)
    seen: dict[str, tuple[str, str]] = {}
    for opt, value, spelling in files:
        if not isinstance(value, OutputPath | OutputFolder):
            continue
        for in_opt, in_value, in_spelling in inputs:
            if spelling == in_spelling:
                how = "is" if os.path.abspath(value) == os.path.abspath(in_value) \
                    else "is, through a symbolic link,"
                raise _clash(opt, value, how, in_opt, in_value)
            if _inside(spelling, in_spelling):
                raise _clash(opt, value, "is inside", in_opt, in_value)
            if isinstance(value, OutputFolder) and _inside(in_spelling, spelling):
                raise _clash(opt, value, "holds", in_opt, in_value)
        ident = _identity(spelling)
        if ident is not None and ident in by_identity:
            raise _clash(opt, value, "is a hard link to", *by_identity[ident])
        if spelling in seen:
            other_opt, other = seen[spelling]
            raise UsageError(f"{opt} {value}: the same file as {other_opt} {other}; give "
                             "each output its own file")
        seen[spelling] = (opt, value)


def _where_credentials_go(uri: str) -> str:
    """Where a URI's credentials belong instead: an HTTP endpoint's headers or user option,
    or a store's own environment."""
    m = _SCHEME.match(uri)
    if m and m.group(1).lower() in ("http", "https"):
        return ("give them as the endpoint's headers (OTLP: OTEL_EXPORTER_OTLP_HEADERS, e.g. "
                "'Authorization=Basic ...') or, where the command has one, its --user option "
                "(the password from MQROUTE_PASSWORD or the terminal)")
    return ("give them through the store's environment or configuration "
            "(AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, "
            "GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_*, ...)")


def _clash(opt: str, value: str, how: str, in_opt: str, in_value: str) -> UsageError:
    return UsageError(f"{opt} {value} {how} the input {in_opt} {in_value}: writing it "
                      "would destroy or change what this command reads; choose another place")
