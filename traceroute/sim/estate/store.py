"""What an estate folder holds, file by file, and how the simulation's state becomes it.

    DIR/estate.json                    what the folder is: its queue managers (in order),
                                       the simulation's epoch and clock, seed, latency,
                                       and the counters that keep MsgIds unique
    DIR/QMGR/definitions.mqsc          the queue manager's definitions, as dmpmqcfg writes
                                       them (temporary dynamic queues left out)
    DIR/QMGR/channels.json             channel status: STOPPED or not, RUNNING/RETRYING/
                                       STARTING (its place among those waiting for an
                                       active slot), counters, monitoring indicators, times
    DIR/QMGR/qm.ini                    the queue manager's configuration file, when it has
                                       one (CHANNELS MaxChannels, MaxActiveChannels:
                                       `traceroute.sim.qmini`); kept as written
    DIR/QMGR/queues.json               per queue: last put and get, QTIME, RESET QSTATS
                                       counters, and each message's put time
    DIR/QMGR/messages/QUEUE.dmp        the messages on the queue, a dmpmqmsg dump

Times are wall-clock times in UTC, ISO 8601 with microseconds ('2026-11-28T12:00:00.000000Z');
the simulation counts seconds from the estate's epoch. Queue and queue manager names are
file names through `folder.file_name`. JSON is written with sorted keys and one item a
line, so two states of an estate diff line by line.
"""

from __future__ import annotations

import copy
import json
from collections import deque
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta

from pcf.dmpmqmsg import DumpedMessage, read, write
from pcf.headers import unpack_xqh
from pcf.mqmd import MQMD
from traceroute.sim.cmdserver.monitor import (
    ChannelRecord,
    Indicator,
    Monitor,
    QueueRecord,
)
from traceroute.sim.estate.folder import file_name
from traceroute.sim.mqsc import to_mqsc
from traceroute.sim.network import Network, QueueManager
from traceroute.sim.qfile import block_size
from traceroute.sim.simulator import Simulator, Stored
from traceroute.status.zones import ZoneError, zone_of

FORMAT = "mqroute simulated estate"
VERSION = 1
ESTATE_FILE = "estate.json"
DEFINITIONS, CHANNELS, QUEUES, MESSAGES = ("definitions.mqsc", "channels.json", "queues.json",
                                           "messages")
QM_INI = "qm.ini"
_ISO = "%Y-%m-%dT%H:%M:%S.%fZ"


class StateError(ValueError):
    """A file of the folder that does not say what it should: names the file and why."""


def iso(epoch: datetime, seconds: float | None) -> str | None:
    """Seconds since the epoch as a wall-clock ISO 8601 time (None stays None)."""
    if seconds is None:
        return None
    return (epoch + timedelta(seconds=seconds)).strftime(_ISO)


def seconds_of(epoch: datetime, text: object, where: str) -> float | None:
    """An ISO 8601 time as seconds since the epoch (None stays None)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise StateError(f"{where}: {text!r} is not a time")
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise StateError(f"{where}: {text!r} is not an ISO 8601 time") from None
    if moment.tzinfo is not None:
        moment = moment.replace(tzinfo=None) - (moment.utcoffset() or timedelta())
    return (moment - epoch).total_seconds()


def json_text(value: object) -> str:
    """JSON as the folder writes it: sorted keys, one item a line, a final newline."""
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


@dataclass
class Meta:
    """estate.json."""

    queue_managers: list[str]
    epoch: datetime                    # naive UTC: simulation time 0
    clock: float = 0.0                 # the simulation's time when last saved
    seed: int | None = None
    latency: float = 0.05
    identity: dict = field(default_factory=dict)
    #: The zone the queue managers' clocks show (`traceroute.status.zones.zone_of`'s words):
    #: the local time of their PCF status dates. Absent in older folders: UTC.
    time_zone: str = "UTC"

    def to_text(self) -> str:
        """The file's text."""
        return json_text({"format": FORMAT, "version": VERSION,
                          "queue_managers": self.queue_managers,
                          "epoch": self.epoch.strftime(_ISO),
                          "clock": iso(self.epoch, self.clock), "seed": self.seed,
                          "latency": self.latency, "identity": self.identity,
                          "time_zone": self.time_zone})

    @classmethod
    def from_text(cls, text: str, where: str) -> Meta:
        """Read estate.json (StateError when it is not one this version writes)."""
        try:
            data = json.loads(text)
        except ValueError as e:
            raise StateError(f"{where}: not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StateError(f"{where}: not an estate folder's {ESTATE_FILE}")
        if data.get("version") != VERSION:
            raise StateError(f"{where}: version {data.get('version')!r} (this mqroute "
                             f"reads version {VERSION})")
        try:
            epoch = datetime.strptime(data["epoch"], _ISO)
            qmgrs = [str(q) for q in data["queue_managers"]]
            seed = data.get("seed")
            meta = cls(qmgrs, epoch, 0.0, None if seed is None else int(seed),
                       float(data.get("latency", 0.05)), dict(data.get("identity") or {}))
        except (KeyError, TypeError, ValueError) as e:
            raise StateError(f"{where}: {e}") from None
        meta.clock = seconds_of(epoch, data.get("clock"), where) or 0.0
        zone = data.get("time_zone", "UTC")
        try:
            zone_of(str(zone))
        except ZoneError as e:
            raise StateError(f"{where}: time_zone {e}") from None
        meta.time_zone = str(zone)
        return meta


# --- definitions --------------------------------------------------------------------------

def definitions_text(qm: QueueManager) -> str:
    """A queue manager's definitions as MQSC, dmpmqcfg's layout (the crtmqm objects it
    altered or deleted included; no STOP CHANNEL: that is channel state; no temporary
    dynamic queues: they end with their connection)."""
    kept = copy.deepcopy(qm)
    kept.stopped = set()
    for name in [n for n, q in kept.queues.items()
                 if q.kind == "QLOCAL" and q.get("DEFTYPE") == "TEMPDYN"]:  # not models
        dict.__delitem__(kept.queues, name)
    return to_mqsc(Network({qm.name: kept}))


# --- channels -------------------------------------------------------------------------------

_COUNTS = ("msgs", "batches", "seq", "chances", "batch_chances")
_TIMES = ("started", "last_msg", "last_active")
#: DISPLAY CHSTATUS's byte and buffer counts: their keys in channels.json -> Traffic fields.
_TRAFFIC = {"bytssent": "bytes_sent", "bytsrcvd": "bytes_rcvd", "bufssent": "bufs_sent",
            "bufsrcvd": "bufs_rcvd"}


def channels_data(monitor: Monitor, qm: QueueManager, epoch: datetime) -> dict:
    """channels.json of a queue manager: every channel with a status or stopped."""
    out: dict[str, dict] = {}
    waiting = monitor.sim.starting(qm.name)
    names = {n for (owner, n) in monitor.channels if owner == qm.name} | qm.stopped
    for name in sorted(names | set(waiting)):
        rec = monitor.channels.get((qm.name, name))
        status = monitor.channel_state(qm.name, name)[0]
        item: dict = {"status": status, "stopped": name in qm.stopped}
        if name in waiting:  # STARTING: its place among those waiting for an active slot
            item["starting"] = waiting.index(name)
        if rec is not None:
            item.update({"chltype": rec.chltype, "state": rec.state, "partner": rec.partner,
                         "conname": rec.conname, "xmitq": rec.xmitq,
                         "saved_seq": rec.saved_seq, "xqtime": rec.xqtime.to_json(),
                         "nettime": rec.nettime.to_json(),
                         "xbatchsz": rec.xbatchsz.to_json()})
            item.update({k: getattr(rec, k) for k in _COUNTS})
            item.update({k: getattr(rec.traffic, f) for k, f in _TRAFFIC.items()})
            item.update({k: iso(epoch, getattr(rec, k)) for k in _TIMES})
        out[name] = item
    return out


def load_channels(data: object, monitor: Monitor, qm: QueueManager, epoch: datetime,
                  where: str) -> list[str]:
    """Channel status from channels.json into the monitor and the queue manager; the
    channels waiting for an active slot, first first."""
    if not isinstance(data, dict):
        raise StateError(f"{where}: not a JSON object of channels")
    waiting: list[tuple[int, str]] = []
    for name, item in data.items():
        if not isinstance(item, dict):
            raise StateError(f"{where}: channel {name}: not a JSON object")
        if item.get("stopped"):
            qm.stopped.add(name)
        place = item.get("starting")
        if isinstance(place, int) and not isinstance(place, bool):
            waiting.append((place, name))
        if "chltype" not in item:
            continue
        try:
            rec = ChannelRecord(str(item["chltype"]), str(item.get("state") or ""),
                                str(item.get("partner") or ""), str(item.get("conname") or ""),
                                str(item.get("xmitq") or ""))
            for k in _COUNTS:
                setattr(rec, k, int(item.get(k) or 0))
            for k, f in _TRAFFIC.items():  # absent from folders written before them: 0
                setattr(rec.traffic, f, int(item.get(k) or 0))
            saved = item.get("saved_seq")
            rec.saved_seq = None if saved is None else int(saved)
        except (TypeError, ValueError) as e:
            raise StateError(f"{where}: channel {name}: {e}") from None
        for k in _TIMES:
            setattr(rec, k, seconds_of(epoch, item.get(k), f"{where}: channel {name}"))
        rec.xqtime = Indicator.from_json(item.get("xqtime"))
        rec.nettime = Indicator.from_json(item.get("nettime"))
        rec.xbatchsz = Indicator.from_json(item.get("xbatchsz"))
        monitor.channels[(qm.name, name)] = rec
    return [name for _place, name in sorted(waiting)]


# --- queues and messages --------------------------------------------------------------------

def _md_changes(md: MQMD, base: MQMD) -> dict:
    out: dict = {}
    for f in fields(MQMD):
        a, b = getattr(md, f.name), getattr(base, f.name)
        if a != b:
            out[f.name] = {"hex": a.hex()} if isinstance(a, bytes) else a
    return out


def _md_applied(base: MQMD, changes: dict, where: str) -> MQMD:
    values = {}
    names = {f.name for f in fields(MQMD)}
    for k, v in changes.items():
        if k not in names:
            raise StateError(f"{where}: {k} is not an MQMD field")
        values[k] = bytes.fromhex(v["hex"]) if isinstance(v, dict) else v
    return replace(base, **values)


def queues_data(sim: Simulator, monitor: Monitor, qm: QueueManager, epoch: datetime) -> dict:
    """queues.json of a queue manager: records and message put times, non-empty ones."""
    out: dict[str, dict] = {}
    names = {n for (owner, n) in monitor.queues if owner == qm.name}
    names |= {n for (owner, n), q in sim.queues.items() if owner == qm.name and q}
    for name in sorted(names):
        if name not in qm.queues:
            continue
        rec = monitor.queues.get((qm.name, name)) or QueueRecord()
        messages = []
        for s in sim.queues.get((qm.name, name), ()):
            item: dict = {"msg_id": s.md.msg_id.hex().upper(), "put": iso(epoch, s.put_at)}
            if s.original is not None:
                base = (s.xqh or unpack_xqh(s.data)).msg_desc
                changes = _md_changes(s.original, base)
                if changes:
                    item["original"] = changes
            messages.append(item)
        out[name] = {"last_put": iso(epoch, rec.last_put), "last_get": iso(epoch, rec.last_get),
                     "qtime": rec.qtime.to_json(), "enqueued": rec.enqueued,
                     "dequeued": rec.dequeued, "high_depth": rec.high_depth,
                     "reset": iso(epoch, rec.reset_at), "block": rec.block,
                     "messages": messages}
    return out


def dump_text(qmgr: str, queue: str, messages: list[Stored]) -> str:
    """The dmpmqmsg dump of a queue's messages (printable runs shown as text)."""
    return write([DumpedMessage(s.md, s.data) for s in messages], qmgr=qmgr, queue=queue,
                 text=True)


def message_file(queue: str) -> str:
    """The folder-relative name of a queue's dump, below its queue manager's folder."""
    return f"{MESSAGES}/{file_name(queue)}.dmp"


def load_queues(data: object, dumps: dict[str, str], sim: Simulator, monitor: Monitor,
                qm: QueueManager, epoch: datetime, where: str) -> None:
    """Queue records and messages (from their dumps) into the monitor and the simulator."""
    if not isinstance(data, dict):
        raise StateError(f"{where}: not a JSON object of queues")
    for name, text in dumps.items():
        item = data.get(name) if isinstance(data.get(name), dict) else {}
        times = item.get("messages") if isinstance(item.get("messages"), list) else []
        sim.queues[(qm.name, name)] = deque(
            _messages(text, times, epoch, sim.now, f"{where} / {message_file(name)}"))
    for name, item in data.items():
        if not isinstance(item, dict):
            raise StateError(f"{where}: queue {name}: not a JSON object")
        here = f"{where}: queue {name}"
        try:
            rec = QueueRecord(
                seconds_of(epoch, item.get("last_put"), here),
                seconds_of(epoch, item.get("last_get"), here),
                Indicator.from_json(item.get("qtime")), int(item.get("enqueued") or 0),
                int(item.get("dequeued") or 0), int(item.get("high_depth") or 0),
                seconds_of(epoch, item.get("reset"), here))
            rec.block = block_size(item.get("block"))
        except (TypeError, ValueError) as e:
            raise StateError(f"{here}: {e}") from None
        monitor.queues[(qm.name, name)] = rec


def _messages(text: str, times: list, epoch: datetime, now: float,
              where: str) -> list[Stored]:
    try:
        dump = read(text, source=where)
    except ValueError as e:
        raise StateError(str(e)) from None
    unused = [t for t in times if isinstance(t, dict)]
    out = []
    for m in dump.messages:
        md = m.md or MQMD()
        found = next((t for t in unused if t.get("msg_id") == md.msg_id.hex().upper()), None)
        if found is not None:
            unused.remove(found)
            put_at = seconds_of(epoch, found.get("put"), where)
        else:  # a message added by hand: its MQMD's put time, else now
            put_at = _put_time(md, epoch)
        xqh = original = None
        if md.format.strip() == "MQXMIT":
            try:
                xqh = unpack_xqh(m.data)
            except ValueError as e:
                raise StateError(f"{where}:{m.line}: {e}") from None
            if found is not None and isinstance(found.get("original"), dict):
                original = _md_applied(xqh.msg_desc, found["original"], where)
        out.append(Stored(md, m.data, now if put_at is None else put_at, original, xqh))
    return out


def _put_time(md: MQMD, epoch: datetime) -> float | None:
    try:
        moment = datetime.strptime(md.put_date + md.put_time[:6], "%Y%m%d%H%M%S")
    except ValueError:
        return None
    hundredths = int(md.put_time[6:8]) if md.put_time[6:8].isdigit() else 0
    return (moment - epoch).total_seconds() + hundredths / 100
