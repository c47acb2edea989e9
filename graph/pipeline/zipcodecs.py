"""EBCDIC code pages for a job shipped as a zip (`graph.pipeline.ship`).

The `ebcdic` package finds its code pages by listing its own folder, which finds nothing
when it is imported from a zip on a bare executor; `pcf` then lacks cp1047 and the others.
`register` adds a codec search function that imports `ebcdic.cpNNN` by name (zip imports
work), and does so only when `ebcdic` comes from a zip. It runs when `graph.pipeline` is
imported, before `pcf` is.
"""

from __future__ import annotations

import codecs
import importlib
import importlib.util
import os
import re

_NAME = re.compile(r"cp\d+(ms)?")


def _search(name: str) -> codecs.CodecInfo | None:
    if not _NAME.fullmatch(name):
        return None
    try:
        module = importlib.import_module(f"ebcdic.{name}")
    except ImportError:
        return None
    return module.getregentry()


def register() -> bool:
    """Register the search function when `ebcdic` is imported from a zip; True if it was."""
    try:
        spec = importlib.util.find_spec("ebcdic")
    except (ImportError, ValueError):
        return False
    origin = spec.origin if spec is not None else None
    if origin is None or os.path.isfile(origin):
        return False  # an ordinary install: ebcdic registers its code pages itself
    codecs.register(_search)
    return True


register()
