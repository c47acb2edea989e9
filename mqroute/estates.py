"""The estate a command simulates: IBM's demo network, MQSC files, or an estate folder.

`--network demo`, `--network FILE.mqsc...` (or `--mqsc FILE...`) build a network that lives
for one command; `--network DIR` opens a simulated estate folder (`mqroute sim init`), whose
queue managers live between commands: the command acts on it under its lock and writes
back what changed (messages, channel state, monitoring) when it ends. Every simulated
queue manager has a command server. Problems become one line and exit status 2.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from mqroute.errors import FatalError
from mqroute.options import DEMO
from traceroute.sim import simulator
from traceroute.sim.cmdserver import CommandServer, attach
from traceroute.sim.estate import Estate, EstateError, is_estate
from traceroute.sim.network import Network


@dataclass
class Simulation:
    """A simulated estate for one command: its simulator and command server, and the
    estate folder when it is one (saved when the command ends)."""

    sim: simulator.Simulator
    server: CommandServer
    estate: Estate | None = None

    @property
    def first(self) -> str:
        """The first queue manager (the default one)."""
        return next(iter(self.sim.network.qmgrs))


def network_of(specs: list[str], *, strict: bool = False) -> Network:
    """The network of `demo` or MQSC files (each failing command reported on stderr, as
    runmqsc does; with `strict` any failure is fatal); FatalError naming a file that cannot
    be used."""
    from mqroute.inputs import load_mqsc
    from traceroute.sim.mqsc import parse_mqsc

    if specs == [DEMO]:
        text = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc")
        network = parse_mqsc(text.read_text(), source="demo (qm1_qm2.mqsc)")
    else:
        for spec in specs:
            if Path(spec).is_dir():
                raise FatalError(f"{spec}: a folder that is not an estate (no estate.json; "
                                 "make one with mqroute sim init)")
        network = load_mqsc(specs, strict=strict)
    if not network.qmgrs:
        raise FatalError(f"{', '.join(specs)}: no queue manager is defined (no commands, no "
                         "'* Queue manager name:' header)")
    return network


def is_folder(specs: list[str]) -> bool:
    """True when the specs name one estate folder."""
    return len(specs) == 1 and is_estate(specs[0])


@contextlib.contextmanager
def simulation(specs: list[str], *, seed: int | None = None, latency: float = 0.05,
               strict: bool = False) -> Iterator[Simulation]:
    """The simulated estate the specs name, for the length of a command (an estate folder
    locked, and saved at the end unless an exception ends the command)."""
    if is_folder(specs):
        try:
            with Estate.open(specs[0]) as estate:
                yield Simulation(estate.sim, estate.server, estate)
        except EstateError as e:
            raise FatalError(str(e)) from None
        return
    sim = simulator.Simulator(network_of(specs, strict=strict), seed=seed, latency=latency)
    yield Simulation(sim, attach(sim))
