"""`records.model.maker` makes the same frozen dataclass object as the class's own
__init__ (equal, same hash, same repr, still frozen), for every class the parser makes so."""

from __future__ import annotations

import dataclasses

import pytest

from pcf import mqc
from pcf.model import Group, Integer
from traceroute.records.model import Activity, Extra, Operation, TraceRoute, defaults, maker
from traceroute.records.parse import Record
from traceroute.records.tracemsg import TraceOptions

OP = Operation(mqc.MQOPER_PUT, "2026-11-28", "19.00.00", "QM1", None, "Q", "Q", "R", "QM2",
               None, None, None, None, 2, b"s", 1, 5, None, None,
               (Extra("X", Integer(1, 2)),), Group(mqc.MQGACF_OPERATION, []))
VALUES = {
    Operation: [tuple(getattr(OP, f.name) for f in dataclasses.fields(Operation))],
    TraceRoute: [(1, 2, 3, None, -1, 0, 0, 2, (Integer(7, 7),)), (None,) * 8 + ((),)],
    Activity: [("amqsput", 6, "Application put", (OP,), TraceRoute(1), (), None)],
    Record: [("report", b"k" * 24, (), None, None, "file", 3, None)],
}


@pytest.mark.parametrize("cls", list(VALUES), ids=lambda c: c.__name__)
def test_same_object_as_init(cls):
    make = maker(cls)
    for values in VALUES[cls]:
        made, init = make(values), cls(*values)
        assert type(made) is cls
        assert made == init and hash(made) == hash(init) and repr(made) == repr(init)
        assert [getattr(made, f.name) for f in dataclasses.fields(cls)] == list(values)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.__setattr__(dataclasses.fields(cls)[0].name, 1)


def test_values_must_be_all_fields():
    with pytest.raises(ValueError):
        maker(TraceRoute)((1, 2))


def test_refuses_classes_it_would_get_wrong():
    with pytest.raises(TypeError):
        maker(TraceOptions)  # __post_init__ checks: not skipped silently


def test_defaults_in_field_order():
    assert defaults(TraceRoute) == (None,) * 8 + ((),)
    assert len(defaults(Operation)) == len(dataclasses.fields(Operation))
