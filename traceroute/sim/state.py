"""Engine state as JSON: dataclasses of numbers, text, bytes, lists and nested dataclasses.

The simulated estate keeps what its monitoring engines have counted between commands
(statistics since the interval began, connections' accounting, activity-trace records not
yet written, performance-event states) in JSON files a person can read. `to_json(value)`
turns such a dataclass (or list, dict, tuple, deque of them) into JSON-ready values: bytes
become {"hex": ...}, deques and tuples lists; `from_json(cls, data)` rebuilds one from its
type hints, checking every value's type (`StateError` names the field), so a hand-edited or
damaged file is refused with a sentence, never run as code (no pickle).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections import deque
from typing import Any, Union, get_args, get_origin, get_type_hints

__all__ = ["StateError", "from_json", "to_json"]


class StateError(ValueError):
    """Saved engine state that does not fit its type: says which field and why."""


def to_json(value: Any) -> Any:
    """JSON-ready values of a dataclass (or container of them)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, deque, set, frozenset)):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not engine state")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        import sys

        module = sys.modules.get(cls.__module__)
        hints = _HINTS[cls] = get_type_hints(cls, vars(module) if module else None)
    return hints


def from_json(kind: Any, data: Any, where: str = "state") -> Any:
    """A value of type `kind` from `to_json`'s output (StateError when it does not fit)."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_json(option, data, where)
            except StateError as e:
                errors.append(str(e))
        raise StateError(errors[0] if errors else f"{where}: {data!r} does not fit")
    if kind is Any:
        return data
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise StateError(f"{where}: not a JSON object")
        hints = _hints(kind)
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_json(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and \
                    f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
                raise StateError(f"{where}: {f.name} is missing")
        try:
            return kind(**values)
        except (TypeError, ValueError) as e:
            raise StateError(f"{where}: {e}") from None
    if kind is bytes:
        if not isinstance(data, dict) or not isinstance(data.get("hex"), str):
            raise StateError(f"{where}: not {{\"hex\": ...}}")
        try:
            return bytes.fromhex(data["hex"])
        except ValueError:
            raise StateError(f"{where}: not hex") from None
    if origin in (list, deque, set, frozenset, tuple) or kind in (list, tuple):
        if not isinstance(data, list):
            raise StateError(f"{where}: not a list")
        args = get_args(kind)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(data):
                raise StateError(f"{where}: {len(data)} items, not {len(args)}")
            return tuple(from_json(a, v, f"{where}[{i}]") for i, (a, v) in
                         enumerate(zip(args, data, strict=True)))
        item = args[0] if args else Any
        items = [from_json(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return (origin or kind)(items) if (origin or kind) is not list else items
    if origin is dict or kind is dict:
        if not isinstance(data, dict):
            raise StateError(f"{where}: not a JSON object")
        args = get_args(kind) or (str, Any)
        return {from_json(args[0], k, f"{where} key"): from_json(args[1], v, f"{where}[{k}]")
                for k, v in data.items()}
    if kind is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise StateError(f"{where}: {data!r} is not a number")
        return float(data)
    if kind is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise StateError(f"{where}: {data!r} is not a whole number")
        return data
    if kind in (str, bool):
        if not isinstance(data, kind):
            raise StateError(f"{where}: {data!r} is not {kind.__name__}")
        return data
    if kind is type(None):
        if data is not None:
            raise StateError(f"{where}: {data!r} is not null")
        return None
    if isinstance(kind, typing.TypeVar):
        return data
    raise StateError(f"{where}: cannot read a {kind!r}")
