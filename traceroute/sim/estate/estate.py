"""A simulated estate that lives between commands: load it, act on it, save what changed.

    with Estate.open("estate") as estate:      # locked; loaded; clock set to now
        estate.sim.put("QM1", "APP.Q", MQMD(), b"hello")
    # settled (channels moved what they could) and saved: the next command sees it

`Estate.create(DIR, network)` makes the folder. The simulation's clock is the wall clock:
opening sets it to now (or to the last saved clock if that is later: the simulation may run
a little ahead, a hop at a time), so a message put an hour ago is an hour old. On opening,
channels that were retrying try again (as their retry timer would have made them), and
the estate settles; on leaving the `with` block without an exception it settles again (runs
what is due in the next `HORIZON` seconds: messages in flight, message retries; at most
`MAX_EVENTS` events) and saves, all files or none (`traceroute.sim.estate.folder`). An
exception leaves the folder as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from traceroute.sim.cmdserver import CommandServer, Monitor, attach
from traceroute.sim.estate.engines import Engines, monitoring_file, mqat_file
from traceroute.sim.estate.folder import Folder, FolderError, file_name, mq_name
from traceroute.sim.estate.store import (
    CHANNELS,
    DEFINITIONS,
    ESTATE_FILE,
    MESSAGES,
    QM_INI,
    QUEUES,
    Meta,
    StateError,
    channels_data,
    definitions_text,
    dump_text,
    json_text,
    load_channels,
    load_queues,
    message_file,
    queues_data,
)
from traceroute.sim.estate.units import recover
from traceroute.sim.mqsc import MQSCError, parse_mqsc
from traceroute.sim.network import Network, QueueManager
from traceroute.sim.qmini import QmIniError, parse_qm_ini
from traceroute.sim.simulator import Simulator
from traceroute.sim.state import StateError as EngineStateError
from traceroute.status.zones import ZoneError, zone_of

#: The most events one settling runs (a routing loop would otherwise never end).
MAX_EVENTS = 1_000_000
#: How far ahead of now one settling runs the simulation (seconds): hops, message retries.
HORIZON = 30.0


class EstateError(Exception):
    """The estate folder cannot be used: one line saying which file and why."""


def is_estate(path: str | Path) -> bool:
    """True when `path` is an estate folder (it has an estate.json)."""
    return (Path(path) / ESTATE_FILE).is_file()


def _utc_naive(now: datetime | None) -> datetime:
    moment = now or datetime.now(UTC)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


class Estate:
    """An estate folder, loaded: its simulator, monitor and command server."""

    def __init__(self, folder: Folder, meta: Meta, sim: Simulator,
                 server: CommandServer, engines: Engines | None = None) -> None:
        self.folder = folder
        self.meta = meta
        self.sim = sim
        self.server = server
        server.tz = zone_of(meta.time_zone)  # the clocks of its queue managers
        self._texts: dict[str, str] = {}
        #: relative path of a dump -> (the messages it holds; its text): a queue whose
        #: messages are the very same objects is not written out again (the objects are
        #: held here, so no new message can take an old one's identity)
        self._dumps: dict[str, tuple[tuple, str]] = {}
        #: statistics, accounting, activity trace and events, written by the clock
        self.engines = engines if engines is not None else \
            Engines(sim, server, _mqat(folder, sim))

    @property
    def path(self) -> Path:
        """The folder."""
        return self.folder.path

    @property
    def monitor(self) -> Monitor:
        """Channel and queue status, real-time monitoring."""
        return self.server.monitor

    def qmgr(self, name: str) -> QueueManager:
        """A queue manager of the estate; EstateError naming the ones there are."""
        qm = self.sim.network.qmgrs.get(name)
        if qm is None:
            known = ", ".join(self.sim.network.qmgrs)
            raise EstateError(f"{self.path}: no queue manager {name} (the estate has {known})")
        return qm

    # --- making and opening ----------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, network: Network, *, seed: int | None = None,
               latency: float = 0.05, now: datetime | None = None,
               time_zone: str = "UTC") -> None:
        """Make an estate folder at `path` (absent or an empty folder) from a network; its
        queue managers' clocks show `time_zone` (`traceroute.status.zones.zone_of`)."""
        try:
            zone_of(time_zone)
        except ZoneError as e:
            raise EstateError(str(e)) from None
        target = Path(path)
        if is_estate(target):
            raise EstateError(f"{target}: already an estate (change it with mqroute sim "
                              "runmqsc, or remove it first)")
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise EstateError(f"{target}: exists and is not an empty folder")
        if not network.qmgrs:
            raise EstateError("no queue manager is defined (no commands, no '* Queue manager "
                              "name:' header)")
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise EstateError(f"{target}: {e.strerror or e}") from None
        epoch = _utc_naive(now)
        sim = Simulator(network, seed=seed, latency=latency, start=epoch)
        meta = Meta(list(sim.network.qmgrs), epoch, 0.0, seed, latency, time_zone=time_zone)
        estate = cls(Folder(target), meta, sim, attach(sim))
        try:
            with estate.folder.locked():
                estate.settle()
                estate.save()
        except FolderError as e:
            raise EstateError(f"{target}: {e.strerror or e}") from None

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: str | Path, *, wait: float = 60.0,
             now: datetime | None = None) -> Iterator[Estate]:
        """The estate at `path`, locked, loaded and settled; saved when the block ends."""
        folder = Folder(path)
        if not is_estate(folder.path):
            raise EstateError(f"{folder.path}: not an estate folder (no {ESTATE_FILE}; make "
                              "one with mqroute sim init)")
        try:
            with folder.locked(wait):
                folder.recover()
                estate = cls._load(folder, now)
                estate.retry()
                estate.settle()
                yield estate
                estate.end_applications()
                estate.settle()
                estate.save()
        except FolderError as e:
            raise EstateError(f"{e.filename or folder.path}: {e.strerror or e}") from None
        except (StateError, EngineStateError) as e:
            raise EstateError(str(e)) from None

    @classmethod
    def _load(cls, folder: Folder, now: datetime | None) -> Estate:
        texts: dict[str, str] = {}

        def read(relative: str, required: bool = True) -> str | None:
            text = folder.read(relative)
            if text is None and required:
                raise StateError(f"{folder.file(relative)}: missing")
            if text is not None:
                texts[relative] = text
            return text

        meta = Meta.from_text(read(ESTATE_FILE) or "", str(folder.file(ESTATE_FILE)))
        network = Network()
        for name in meta.queue_managers:
            relative = f"{file_name(name)}/{DEFINITIONS}"
            network.qmgr(name)
            try:
                parse_mqsc(read(relative) or "", source=str(folder.file(relative)),
                           qmgr=name, network=network)
            except MQSCError as e:
                raise StateError(e.located) from None
            ini = read(f"{file_name(name)}/{QM_INI}", False)
            if ini is not None:
                try:
                    network.qmgrs[name].ini = parse_qm_ini(
                        ini, str(folder.file(f"{file_name(name)}/{QM_INI}")))
                except QmIniError as e:
                    raise StateError(str(e)) from None
        sim = Simulator(network, seed=meta.seed, latency=meta.latency, start=meta.epoch)
        sim.now = max((_utc_naive(now) - meta.epoch).total_seconds(), meta.clock)
        sim.restore_identity(meta.identity)
        server = attach(sim)
        waiting: dict[str, list[str]] = {}
        for name in meta.queue_managers:
            qm = sim.network.qmgrs[name]
            base = file_name(name)
            where = str(folder.file(f"{base}/{CHANNELS}"))
            waiting[name] = load_channels(_json(read(f"{base}/{CHANNELS}", False), where),
                                          server.monitor, qm, meta.epoch, where)
            dumps: dict[str, str] = {}
            for dump in sorted(folder.file(f"{base}/{MESSAGES}").glob("*.dmp")):
                queue = mq_name(dump.stem)
                text = read(f"{base}/{message_file(queue)}") or ""
                if queue not in qm.queues:
                    raise StateError(f"{dump}: queue {queue} is not defined on {name} (see "
                                     f"{folder.file(f'{base}/{DEFINITIONS}')})")
                dumps[queue] = text
            where = str(folder.file(f"{base}/{QUEUES}"))
            load_queues(_json(read(f"{base}/{QUEUES}", False), where), dumps, sim,
                        server.monitor, qm, meta.epoch, where)
        estate = cls(folder, meta, sim, server)  # its engines, once the messages are loaded
        for name in meta.queue_managers:
            relative = monitoring_file(name)
            estate.engines.load(name, read(relative, False), str(folder.file(relative)))
        estate._texts = texts
        for (owner, queue), messages in sim.queues.items():
            relative = f"{file_name(owner)}/{message_file(queue)}"
            if relative in texts:
                estate._dumps[relative] = (tuple(messages), texts[relative])
        for name in meta.queue_managers:  # channels waiting for an active slot wait on
            if waiting[name]:
                sim.resume_waiting(name, waiting[name])
        recover(estate)
        estate.engines.tick()
        return estate

    # --- running and saving ----------------------------------------------------------------

    def end_applications(self) -> None:
        """The command's applications disconnect (their accounting and activity trace are
        written); the channels' agents and the command server keep running, as a queue
        manager's do between commands."""
        self.engines.end_command()

    def retry(self) -> None:
        """Channels with messages waiting try again (their retry timer has run)."""
        for name in self.sim.network.qmgrs:
            self.sim.retry(name)

    def settle(self, max_events: int = MAX_EVENTS) -> None:
        """Run what is due within `HORIZON` seconds (messages in flight, message retries);
        a channel's retry timer beyond it is not waited for: the next command that opens
        the estate retries (`retry`). EstateError when that takes over `max_events`."""
        sim, done = self.sim, 0
        limit = sim.now + HORIZON
        while (due := sim.next_event_time()) is not None and due <= limit:
            done += sim.run(until=due, max_events=max_events - done)
            if done >= max_events:
                raise EstateError(f"{self.path}: the simulation did not settle after "
                                  f"{max_events} events (messages looping between queue "
                                  "managers?); nothing was saved")

    def texts(self) -> dict[str, str]:
        """Every file of the folder as the estate is now: relative path -> text."""
        sim, epoch = self.sim, self.meta.epoch
        self.meta.queue_managers = list(sim.network.qmgrs)
        self.meta.clock = sim.now
        self.meta.identity = sim.identity()
        out = {ESTATE_FILE: self.meta.to_text()}
        for qm in sim.network.qmgrs.values():
            base = file_name(qm.name)
            out[f"{base}/{DEFINITIONS}"] = definitions_text(qm)
            if qm.ini.given:
                out[f"{base}/{QM_INI}"] = qm.ini.text
            out[f"{base}/{CHANNELS}"] = json_text(channels_data(self.monitor, qm, epoch))
            out[f"{base}/{QUEUES}"] = json_text(queues_data(sim, self.monitor, qm, epoch))
            monitoring = self.engines.state_text(qm.name)
            if monitoring is not None:
                out[monitoring_file(qm.name)] = monitoring
            for (owner, queue), messages in sorted(sim.queues.items()):
                if owner == qm.name and messages and queue in qm.queues:
                    relative = f"{base}/{message_file(queue)}"
                    now = tuple(messages)
                    kept = self._dumps.get(relative)
                    if kept is None or len(kept[0]) != len(now) or \
                            any(a is not b for a, b in zip(kept[0], now, strict=True)):
                        kept = self._dumps[relative] = (now, dump_text(qm.name, queue,
                                                                       list(now)))
                    out[relative] = kept[1]
        return out

    def save(self) -> None:
        """Write what changed since the estate was loaded (all of it, or nothing). A put
        still waiting for its message retry ends as its channel's batch would when the
        channel ends: backed out, the message first on its transmission queue again (it
        goes again with the next command; nothing is lost)."""
        self.sim.back_out_message_retries()
        texts = self.texts()
        for relative, text in texts.items():
            if self._texts.get(relative) != text:
                self.folder.stage(relative, text)
        for relative in self._texts:
            if relative not in texts:
                self.folder.remove(relative)
        self.folder.commit()
        self._texts = texts


def _mqat(folder: Folder, sim: Simulator) -> dict:
    """Each queue manager's mqat.ini: its folder's DIR/QMGR/mqat.ini, else the default."""
    return {name: Engines.mqat_of(folder.read(mqat_file(name)), str(folder.file(mqat_file(name))))
            for name in sim.network.qmgrs}


def _json(text: str | None, where: str) -> object:
    import json

    if text is None:
        return {}
    try:
        return json.loads(text)
    except ValueError as e:
        raise StateError(f"{where}: not JSON ({e})") from None
