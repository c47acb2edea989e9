"""The optional compiled decoder (pcf._cdecode), loaded when it was built and usable.

pcf/_cdecode.c is built by `pip install` when a C compiler is present (setup.py marks it
optional). It decodes well-formed parameter structures into the same pcf.model tree as the
pure-Python decoder and hands anything unusual back to it, so errors stay the Python path's.
Set MQROUTE_PCF_PURE=1 to ignore the compiled decoder.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from collections.abc import Callable

from pcf.codepages import decode_text
from pcf.model import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    StringFilter,
    StringList,
)
from pcf.model import String as _String

#: The node classes in the order pcf/_cdecode.c numbers them.
NODE_CLASSES = (Integer, Integer64, _String, ByteString, IntegerList, Integer64List, StringList,
                IntegerFilter, StringFilter, ByteStringFilter, Group)

#: The fields pcf/_cdecode.c fills, per class (it checks each is a writable slot; this checks
#: there are no others, which it would leave unset).
NODE_FIELDS = (("parameter", "value"), ("parameter", "value"),
               ("parameter", "value", "ccsid", "width"), ("parameter", "value"),
               ("parameter", "value"), ("parameter", "value"),
               ("parameter", "value", "ccsid", "width"), ("parameter", "operator", "value"),
               ("parameter", "operator", "value", "ccsid"), ("parameter", "operator", "value"),
               ("parameter", "parameters"))

#: parse(data, offset, count, little, ccsid, end, max_depth) -> (parameters, end) or None.
ParseFn = Callable[[bytes, int, int, bool, int, int, int], "tuple[list, int] | None"]


def _load() -> tuple[ParseFn | None, str]:
    """The compiled parse function, or None and why not."""
    if os.environ.get("MQROUTE_PCF_PURE", "") not in ("", "0"):
        return None, "disabled by MQROUTE_PCF_PURE"
    try:
        _cdecode = importlib.import_module("pcf._cdecode")
    except ImportError as exc:
        return None, f"not built ({exc})"
    for cls, names in zip(NODE_CLASSES, NODE_FIELDS, strict=True):
        if tuple(f.name for f in dataclasses.fields(cls)) != names:
            return None, f"not usable: {cls.__name__} has fields the compiled decoder lacks"
    try:
        _cdecode.init(NODE_CLASSES, decode_text)
    except TypeError as exc:  # the model's classes changed shape: stay pure
        return None, f"not usable: {exc}"
    return _cdecode.parse, "compiled (pcf._cdecode)"


compiled_parse, STATUS = _load()


def available() -> bool:
    """True when pcf.decode uses the compiled decoder."""
    return compiled_parse is not None
