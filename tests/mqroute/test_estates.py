"""mqroute.estates: what --network names is one estate, and what cannot be simulated is one
line naming it (exit status 2 through FatalError)."""

from __future__ import annotations

from importlib import resources

import pytest

from mqroute.errors import FatalError
from mqroute.estates import network_of, simulation
from traceroute.sim.estate import Estate
from traceroute.sim.mqsc import parse_mqsc


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "estate"
    Estate.create(path, parse_mqsc(resources.files("traceroute").joinpath(
        "examples/qm1_qm2.mqsc").read_text()))
    return str(path)


@pytest.mark.parametrize("others", [["demo"], ["more.mqsc"]])
def test_an_estate_folder_with_other_specs_is_refused_saying_so(folder, tmp_path, others):
    (tmp_path / "more.mqsc").write_text("DEFINE QLOCAL(A)\n")
    specs = [folder, *(str(tmp_path / o) if o.endswith(".mqsc") else o for o in others)]
    with pytest.raises(FatalError) as e, simulation(specs):
        pass
    assert "an estate folder is a whole estate" in str(e.value)
    assert "not an estate" not in str(e.value)  # it is one


def test_a_plain_folder_is_not_an_estate(tmp_path):
    with pytest.raises(FatalError, match="a folder that is not an estate"):
        network_of([str(tmp_path)])
