"""The estate a command simulates: IBM's demo network, MQSC files, or an estate folder.

`--network demo`, `--network FILE.mqsc...` (or `--mqsc FILE...`) build a network that lives
for one command; `--network DIR` opens a simulated estate folder (`mqroute sim init`), whose
queue managers live between commands: the command acts on it under its lock and writes
back what changed (messages, channel state, monitoring) when it ends. Every simulated
queue manager has a command server. Problems become one line and exit status 2.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import tzinfo
from importlib import resources
from pathlib import Path

from mqroute.errors import FatalError
from mqroute.options import DEMO
from traceroute.sim import simulator
from traceroute.sim.cmdserver import CommandServer, attach
from traceroute.sim.estate import Estate, EstateError, is_estate
from traceroute.sim.events import SimEvents
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
            if is_estate(spec):
                raise FatalError(f"{spec}: an estate folder is a whole estate: name it alone "
                                 f"(--network {spec}), not with {_others(specs, spec)}")
            if Path(spec).is_dir():
                raise FatalError(f"{spec}: a folder that is not an estate (no estate.json; "
                                 "make one with mqroute sim init)")
        network = load_mqsc(specs, strict=strict)
    if not network.qmgrs:
        raise FatalError(f"{', '.join(specs)}: no queue manager is defined (no commands, no "
                         "'* Queue manager name:' header)")
    return network


def _others(specs: list[str], spec: str) -> str:
    return ", ".join(s for s in specs if s != spec) or spec


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
    server = attach(sim)
    SimEvents(sim)  # events on the event queues, as the MQSC's switches say
    yield Simulation(sim, server)


def simulated_events(sim: simulator.Simulator) -> list:
    """Every event message on the simulated queue managers' event queues (browsed, left in
    place), decoded: what `show --events` would read from them."""
    from pcf.errors import PCFError
    from traceroute.events import NotEventData, decode_event
    from traceroute.events.model import EVENT_QUEUES

    out = []
    for qmgr in sim.network.qmgrs:
        for queue in EVENT_QUEUES.values():
            for md, data in sim.browse(qmgr, queue):
                with contextlib.suppress(PCFError, NotEventData):  # not an event: skip it
                    out.append(decode_event(data, md, queue=queue))
    return out


def add_admin_options(parser) -> None:
    """--wait, --model-queue and --qmgr-tz: how a command asks a command server and reads
    the local dates and times of its answers."""
    parser.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                        help="how long to wait for the command server's responses (default "
                             "30)")
    parser.add_argument("--model-queue", dest="model_queue", metavar="QUEUE",
                        help="the model queue the temporary reply queue is made from "
                             "(default SYSTEM.DEFAULT.MODEL.QUEUE)")
    parser.add_argument("--qmgr-tz", dest="qmgr_tz", metavar="ZONE",
                        help="the time zone of the queue manager's clock: its status dates "
                             "and times (LPUTDATE/LPUTTIME, LSTMSGDA/LSTMSGTI ...) are local "
                             "time there. An IANA name such as Europe/Paris, UTC, +05:30 or "
                             "local (default: local, this machine's zone; a simulated estate's "
                             "own zone with --network)")


def qmgr_zone(args, default: tzinfo | None = None) -> tzinfo:
    """The zone --qmgr-tz names (UsageError when it names none); `default` (this machine's
    zone when None) without it."""
    from mqroute.errors import UsageError
    from traceroute.status.zones import LOCAL, ZoneError, zone_of

    text = getattr(args, "qmgr_tz", None)
    if not text:
        return LOCAL if default is None else default
    try:
        return zone_of(text)
    except ZoneError as e:
        raise UsageError(f"--qmgr-tz {e}") from None


def simulated_specs(args) -> list[str]:
    """What --network (and --mqsc, where a command has it) name to simulate ([]: a real
    queue manager)."""
    return [*(getattr(args, "network", None) or []), *(getattr(args, "mqsc", None) or [])]


class Admins:
    """The Admins of a command, one per queue manager asked, made when first needed and
    closed (temporary reply queues deleted) by `close`. Call it with a queue manager's
    name ('' for the default one). `names` are a simulated estate's queue managers."""

    def __init__(self, make, names: list[str] | None = None,
                 left_out: dict | None = None) -> None:
        self._make = make
        self._made: dict[str, object] = {}
        self.names = list(names or [])
        #: What the answers held that PCF could not carry (a simulated command server's or
        #: the REST API's), one line per object and attribute: said by `administration`.
        self.left_out: dict = {} if left_out is None else left_out

    def __call__(self, name: str = ""):
        if name not in self._made:
            self._made[name] = self._make(name)
        return self._made[name]

    def close(self) -> None:
        """Close every Admin made (each once), even if one fails."""
        from traceroute.mq.transport import TransportError

        for admin in self._made.values():
            with contextlib.suppress(TransportError, OSError):
                admin.close()  # type: ignore[attr-defined]
        self._made.clear()


def simulated_admins(live: Simulation, *, wait: float | None = None,
                     model: str | None = None, tz: tzinfo | None = None) -> Admins:
    """Admins of the simulated queue managers of `live` (through their command servers);
    their answers' dates read in `tz` (default: the zone the estate's clocks show)."""
    from traceroute.mq.admin import MODEL_QUEUE, WAIT, Admin, PCFOverQueues
    from traceroute.mq.estate import READER
    from traceroute.mq.transport import SimTransport

    zone = live.server.tz if tz is None else tz

    def make(name: str):
        transport = SimTransport(live.sim, name or live.first, quiet_ends_wait=True,
                                 appl_name=READER)  # mqroute, as mqat.ini's rules see it
        return Admin(PCFOverQueues(transport, model_queue=model or MODEL_QUEUE), tz=zone,
                     wait=WAIT if wait is None else wait)

    return Admins(make, list(live.sim.network.qmgrs), left_out=live.server.left_out)


def real_admins(args, *, wait: float | None = None, model: str | None = None) -> Admins:
    """Admins of real queue managers through the connection options: -m's queue manager,
    and any other one through it (its command queue as a remote queue: target_qmgr)."""
    from dataclasses import replace

    from mqroute.errors import UsageError
    from mqroute.options import connection_of
    from traceroute.mq.admin import MODEL_QUEUE, WAIT, Admin, PCFOverQueues
    from traceroute.mq.client import MQTransport
    from traceroute.mq.options import ConnectionOptionError

    try:
        base = connection_of(args)
    except ConnectionOptionError as e:
        raise UsageError(str(e)) from None
    local = qmgr_zone(args)
    home = getattr(args, "qmgr", "") or ""
    if not isinstance(home, str):
        home = ""

    def make(name: str):
        if home and name and name != home:  # through -m's queue manager
            transport = MQTransport.connect(replace(base, qmgr=home))
            channel = PCFOverQueues(transport, target_qmgr=name,
                                    model_queue=model or MODEL_QUEUE)
        else:
            channel = PCFOverQueues(MQTransport.connect(replace(base, qmgr=name or home)),
                                    model_queue=model or MODEL_QUEUE)
        return Admin(channel, tz=local, wait=WAIT if wait is None else wait)

    return Admins(make)


def rest_admins(args, specs: list[str], *, wait: float | None = None) -> Admins:
    """Admins of queue managers through MQ's administrative REST API (--rest URL): each
    asked on its own resource of the server, with -u/--user and its password; dates and
    times read in --qmgr-tz's zone (default: this machine's)."""
    from mqroute.errors import UsageError
    from mqroute.extras import need
    from mqroute.options import connection_given, connection_of
    from traceroute.mq.admin import WAIT, Admin
    from traceroute.mq.options import ConnectionOptionError

    if specs:
        raise UsageError("--rest asks a real queue manager's REST API: not with --network")
    if not getattr(args, "rest", None):
        raise UsageError("--ca and --insecure go with --rest URL")
    if getattr(args, "ca", None) and getattr(args, "insecure", False):
        raise UsageError("--ca and --insecure: give one (check against FILE, or not at all)")
    refused = [f for f in connection_given(args) if f not in ("--user", "-u")]
    if refused:
        raise UsageError(f"{', '.join(refused)}: no meaning with --rest (the REST API needs "
                         "only -m and --user)")
    need("--rest", "httpx", extra="rest")
    try:
        base = connection_of(args)
    except ConnectionOptionError as e:
        raise UsageError(str(e)) from None
    home = getattr(args, "qmgr", "") or ""
    if not isinstance(home, str):
        home = ""
    verify: bool | str = False if getattr(args, "insecure", False) else \
        (str(args.ca) if getattr(args, "ca", None) else True)
    local = qmgr_zone(args)

    def make(name: str):
        from traceroute.mq.rest import RestCommands

        qmgr = name or home
        if not qmgr:
            raise UsageError("--rest: name the queue manager with -m QMGR (the REST API has "
                             "no default one)")
        channel = RestCommands(args.rest, qmgr, user=base.user, password=base.password,
                               verify=verify, tz=local, left_out=left_out)
        return Admin(channel, tz=local, wait=WAIT if wait is None else wait)

    left_out: dict = {}
    return Admins(make, left_out=left_out)


@contextlib.contextmanager
def administration(args, *, wait: float | None = None,
                   specs: list[str] | None = None) -> Iterator[Admins]:
    """`Admins` for the command's queue managers: the simulated estate of --network (saved
    at the end when it is a folder), else real queue managers through the connection
    options. Every Admin made is closed when the block ends. Problems: one line, exit
    status 2."""
    from mqroute.errors import UsageError
    from mqroute.options import connection_given, rest_given

    specs = simulated_specs(args) if specs is None else specs
    with admin_errors():
        if rest_given(args):
            with _used(rest_admins(args, specs, wait=wait)) as admins:
                yield admins
            return
        if specs:
            refused = connection_given(args)
            if refused:
                raise UsageError(f"{', '.join(refused)}: no meaning with --network (a "
                                 "simulated estate has no connections to configure)")
            with simulation(specs, strict=getattr(args, "strict", False)) as live, \
                    _used(simulated_admins(live, wait=wait,
                                           model=getattr(args, "model_queue", None),
                                           tz=qmgr_zone(args, live.server.tz))) as admins:
                yield admins
            return
        with _used(real_admins(args, wait=wait,
                               model=getattr(args, "model_queue", None))) as admins:
            yield admins


@contextlib.contextmanager
def _used(admins: Admins) -> Iterator[Admins]:
    """`admins` for a block: closed at its end, and what their answers could not carry said."""
    try:
        yield admins
    finally:
        admins.close()
        say_left_out(admins.left_out.values())


def say_left_out(lines: Iterable[str]) -> None:
    """One line on stderr per attribute an answer could not carry ('mqroute: QM1
    QLOCAL(A): DEFPSIST(MAYBE) left out: DEFPSIST takes NO, YES'): never dropped unsaid."""
    from pcf.text import printable

    for line in lines:
        print(f"mqroute: {printable(line)}", file=sys.stderr)


@contextlib.contextmanager
def admin_errors() -> Iterator[None]:
    """A connection or an exchange that fails becomes one line and exit status 2."""
    from traceroute.mq.admin import AdminError
    from traceroute.mq.client import PymqiMissing
    from traceroute.mq.transport import TransportError

    try:
        yield
    except (TransportError, PymqiMissing, AdminError) as e:
        raise FatalError(str(e)) from None
