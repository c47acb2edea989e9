"""A queue-manager network as MQSC defines it: queue managers, queues, channels, clusters.

Plain values; `traceroute.sim.mqsc` reads them from MQSC text and `traceroute.sim.simulator` runs
messages through them. Attribute values are kept as MQSC wrote them (upper-cased where MQSC
folds unquoted text), under the full keyword name; typed properties read the ones the
simulator needs.

Every change to these values that an index may depend on (a channel or a cluster queue
defined, an attribute altered, a queue manager added) advances `generation()`, so indexes
computed from a network (`Network.receivers`, `traceroute.sim.resolve`'s) know when to
compute again. Queues outside clusters are read where they are, never indexed: defining one
(an activity-trace queue, a dynamic queue) changes nothing an index holds.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from traceroute.sim.crtmqm import (
    DEFAULT_RECORDS,
    SUBTYPE_KEYWORDS,
    SYSTEM_OBJECTS,
    TYPE_DEFAULTS,
    record_key,
    system_objects,
    type_default,
)
from traceroute.sim.qmini import QmIni

T = TypeVar("T")

_generation = 0
_ATOMS = (str, int, float, bool, type(None))


def generation() -> int:
    """A number that changes whenever any network's objects or attributes change."""
    return _generation


def _changed() -> None:
    global _generation
    _generation += 1


_queue_changes = 0


def queue_changes() -> int:
    """A number that changes whenever a queue is defined or replaced on any queue manager,
    in a cluster or not (`generation()` covers the rest: deletions, attributes ...)."""
    return _queue_changes


class Tracked(dict):
    """A dict whose every change advances `generation()` (reads cost what a dict's do)."""

    __slots__ = ()

    def __setitem__(self, key, value) -> None:
        _changed()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        _changed()
        dict.__delitem__(self, key)

    def __ior__(self, other):
        _changed()
        dict.update(self, other)
        return self

    def update(self, *args, **kwargs) -> None:
        _changed()
        dict.update(self, *args, **kwargs)

    def setdefault(self, key, default=None):
        if key not in self:
            _changed()
        return dict.setdefault(self, key, default)

    def pop(self, *args):
        _changed()
        return dict.pop(self, *args)

    def popitem(self):
        _changed()
        return dict.popitem(self)

    def clear(self) -> None:
        _changed()
        dict.clear(self)


def _clustered(obj: object) -> bool:
    return isinstance(obj, MQObject) and bool(obj.attrs.get("CLUSTER"))


_MISSING = object()
#: field name -> the dict type a _TrackedFields field of that name is kept as
_STORES: dict[str, type] = {}


class _Objects(Tracked):
    """A queue manager's objects of one store (queues, channels or others): what was defined
    or altered, iterated as a dict; a lookup by key (`get`, `in`, `[]`) also finds the
    objects crtmqm made (`traceroute.sim.crtmqm`) that were not deleted (`deleted`) nor
    replaced here. Those defaults are shared, read-only, and never iterated: outputs
    iterate what the configuration made."""

    #: key -> the crtmqm object (filled per store below)
    _SYSTEM: ClassVar[dict] = {}

    def get(self, key, default=None):
        value = dict.get(self, key, _MISSING)
        if value is not _MISSING:
            return value
        return self.system(key, default)

    def __missing__(self, key):
        value = self.system(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or self.system(key) is not None

    def system(self, key, default=None):
        """The crtmqm object of that key when it stands (not deleted, not defined here)."""
        system = self._SYSTEM.get(key)
        if system is None or key in self.__dict__.get("deleted", ()) \
                or dict.__contains__(self, key):
            return default
        return system

    def forget(self, key) -> None:
        """DELETE: the object goes, a crtmqm one included (until defined again)."""
        if dict.__contains__(self, key):
            del self[key]
        if key in self._SYSTEM:
            _changed()
            self.__dict__.setdefault("deleted", set()).add(key)

    def __setitem__(self, key, value) -> None:
        deleted = self.__dict__.get("deleted")
        if deleted:
            deleted.discard(key)
        Tracked.__setitem__(self, key, value)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]


class _Queues(_Objects):
    """A queue manager's queues: adding or replacing one outside any cluster changes no index
    (queues are read where they are; only cluster queues are indexed)."""

    def __setitem__(self, key, value) -> None:
        global _queue_changes
        deleted = self.__dict__.get("deleted")
        if deleted:
            deleted.discard(key)
        if _clustered(value) or _clustered(dict.get(self, key)):
            _changed()
        _queue_changes += 1
        dict.__setitem__(self, key, value)


class _Channels(_Objects):
    """A queue manager's channels."""


class _Others(_Objects):
    """A queue manager's other objects by (KIND, NAME)."""


class _TrackedFields:
    """Assigning one of `_TRACKED` stores it as a Tracked dict (and, when it replaces a value
    already set, advances the generation: a new object changes no network until added)."""

    _TRACKED: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value) -> None:
        if name in self._TRACKED:
            if name in self.__dict__:
                _changed()
            kind = _STORES.get(name, Tracked)
            if type(value) is not kind:
                value = kind(value)
        object.__setattr__(self, name, value)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_cache", None)  # derived: computed again where needed
        return state


def kept(holder: object, key: object) -> object | None:
    """What `cached` keeps on `holder` for `key` in this generation, or None (a hot path
    looks first, and makes its `compute` only when it must)."""
    cache = holder.__dict__.get("_cache")
    if cache is not None and cache[0] == _generation:
        return cache[1].get(key)
    return None


def cached(holder: object, key: object, compute: Callable[[], T]) -> T:
    """`compute()` once per key and generation, kept on `holder` (a network or its part)."""
    cache = holder.__dict__.get("_cache")
    if cache is None or cache[0] != _generation:
        cache = (_generation, {})
        object.__setattr__(holder, "_cache", cache)
    values = cache[1]
    try:
        return values[key]
    except KeyError:
        value = values[key] = compute()
        return value


#: Object kinds, by their full MQSC keyword.
QUEUE_KINDS = ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL")
RECORDING = {"DISABLED": 0, "QUEUE": 1, "MSG": 2}


@dataclass
class MQObject(_TrackedFields):
    """One defined object: its kind (QLOCAL, CHANNEL ...), name, attributes and origin."""

    _TRACKED = frozenset({"attrs"})

    kind: str
    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    source: str = ""
    line: int = 0

    def __deepcopy__(self, memo: dict) -> MQObject:
        # what copy.deepcopy does, without its per-object cost (a Simulator copies thousands)
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        state = self.__getstate__()
        attrs = state.pop("attrs")
        new.__dict__.update({k: v if type(v) in _ATOMS else copy.deepcopy(v, memo)
                             for k, v in state.items()})
        new.__dict__["attrs"] = Tracked({k: v if type(v) in _ATOMS else copy.deepcopy(v, memo)
                                         for k, v in attrs.items()})
        return new

    def get(self, keyword: str, default: str = "") -> str:
        """An attribute's value (full keyword, upper case): its own, else IBM's default for
        its type (`traceroute.sim.crtmqm`: what DEFINE copies from SYSTEM.DEFAULT.*), else
        `default`."""
        attrs = self.attrs
        value = attrs.get(keyword)
        if value is not None:
            return value
        kind = self.kind  # type_default's lookup, inlined: most reads of a key fall back
        sub = SUBTYPE_KEYWORDS.get(kind)
        found = TYPE_DEFAULTS.get((kind, attrs.get(sub, "") if sub else ""))
        return found[1].get(keyword, default) if found else default

    def effective(self) -> dict[str, str]:
        """Every attribute: IBM's defaults for its type overlaid with its own."""
        return {**type_default(self.kind, self.attrs), **self.attrs}

    @property
    def system(self) -> bool:
        """True for an object crtmqm made (shared, read-only: copy it to change it)."""
        return type(self.attrs) is _ReadOnly

    @property
    def cluster(self) -> str:
        """The cluster the object is shared in ('' if none)."""
        return self.get("CLUSTER")


class _ReadOnly(Tracked):
    """The attributes of an object crtmqm made: shared by every queue manager, never changed."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a crtmqm default object is shared: copy it (materialize) to change it")

    __setitem__ = __delitem__ = __ior__ = update = setdefault = pop = popitem = clear = _refuse


def _system_object(kind: str, name: str, attrs: Mapping[str, str]) -> MQObject:
    obj = MQObject(kind, name, source="crtmqm")
    object.__setattr__(obj, "attrs", _ReadOnly())
    dict.update(obj.attrs, attrs)
    return obj


def _system_stores() -> None:
    for kind, name, attrs in system_objects():
        obj = _system_object(kind, name, attrs)
        if kind in QUEUE_KINDS:
            _Queues._SYSTEM[name] = obj
        elif kind == "CHANNEL":
            _Channels._SYSTEM[name] = obj
        else:
            _Others._SYSTEM[(kind, name)] = obj


_Queues._SYSTEM, _Channels._SYSTEM, _Others._SYSTEM = {}, {}, {}
_STORES.update(queues=_Queues, channels=_Channels, others=_Others)
_system_stores()


def default_records() -> dict[tuple[str, ...], MQObject]:
    """The channel authentication records crtmqm makes (source 'crtmqm'), by key."""
    return {record_key(kind, name, attrs): MQObject(kind, name, dict(attrs), "crtmqm")
            for kind, name, attrs in DEFAULT_RECORDS}


def default_record(record: MQObject) -> bool:
    """True for a crtmqm record as crtmqm made it."""
    return record.source == "crtmqm" and any(
        (record.kind, record.name, record.attrs) == (kind, name, dict(attrs))
        for kind, name, attrs in DEFAULT_RECORDS)


def materialize(qm: QueueManager, obj: MQObject) -> MQObject:
    """The object as this queue manager's own (a crtmqm default copied in, to be changed)."""
    if not obj.system:
        return obj
    own = MQObject(obj.kind, obj.name, dict(obj.attrs), obj.source, obj.line)
    store_of(qm, obj.kind)[key_of(obj.kind, obj.name)] = own
    return own


def store_of(qm: QueueManager, kind: str) -> dict:
    """The store that holds objects of `kind` on qm (queues, channels or others)."""
    return qm.queues if kind in QUEUE_KINDS else qm.channels if kind == "CHANNEL" \
        else qm.others


def key_of(kind: str, name: str) -> str | tuple[str, str]:
    """An object's key in its store (the name; (KIND, NAME) in others)."""
    return name if kind in QUEUE_KINDS or kind == "CHANNEL" else (kind, name)


def pristine(obj: MQObject) -> bool:
    """True for a SYSTEM.* object whose every attribute is what crtmqm gave it."""
    if obj.system:
        return True
    made = SYSTEM_OBJECTS.get((obj.kind, obj.name))
    return made is not None and obj.effective() == {**type_default(obj.kind, made), **made}


def all_objects(qm: QueueManager) -> Iterator[MQObject]:
    """Every object of qm as DISPLAY ... (*) shows them: its own and the standing crtmqm
    objects, each kind in name order (queues, channels, then the others)."""
    for store in (qm.queues, qm.channels, qm.others):
        keys = set(dict.keys(store)) | {k for k in store._SYSTEM if store.system(k)}
        for key in sorted(keys, key=lambda k: (k, "") if isinstance(k, str) else k[::-1]):
            yield store[key]


@dataclass
class QueueManager(_TrackedFields):
    """A queue manager: its own attributes and the objects defined on it."""

    _TRACKED = frozenset({"attrs", "queues", "channels", "others"})

    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    queues: dict[str, MQObject] = field(default_factory=dict)
    channels: dict[str, MQObject] = field(default_factory=dict)
    others: dict[tuple[str, str], MQObject] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)
    #: Listeners and services started (START LISTENER/SERVICE): (KIND, NAME).
    running: set[tuple[str, str]] = field(default_factory=set)
    #: SET CHLAUTH / SET AUTHREC / SET POLICY records, by what identifies each record
    #: (`crtmqm.record_key`); crtmqm's default CHLAUTH records to begin with.
    records: dict[tuple[str, ...], MQObject] = field(default_factory=lambda: default_records())
    #: Its qm.ini (`traceroute.sim.qmini`): CHANNELS MaxChannels / MaxActiveChannels.
    ini: QmIni = field(default_factory=QmIni)

    def _recording(self, keyword: str) -> int:
        return RECORDING.get(self.attrs.get(keyword, "MSG"), 2)

    @property
    def activrec(self) -> int:
        """ACTIVREC as an MQRECORDING_* value (default MSG)."""
        return self._recording("ACTIVREC")

    @property
    def routerec(self) -> int:
        """ROUTEREC as an MQRECORDING_* value (default MSG)."""
        return self._recording("ROUTEREC")

    @property
    def deadq(self) -> str:
        """The dead-letter queue's name ('' if none)."""
        return self.attrs.get("DEADQ", "")

    @property
    def defxmitq(self) -> str:
        """The default transmission queue ('' if none)."""
        return self.attrs.get("DEFXMITQ", "")

    @property
    def command_level(self) -> int:
        """CMDLEVEL (default 940); below 600 a queue manager has no trace-route support."""
        try:
            return int(self.attrs.get("CMDLEVEL", "940"))
        except ValueError:
            return 940

    @property
    def supports_trace_route(self) -> bool:
        """True from WebSphere MQ 6.0 (command level 600) on."""
        level = self.attrs.get("CMDLEVEL")  # asked at every hop: the usual answers at once
        if level is None or level == "940":
            return True
        return self.command_level >= 600

    def channel_running(self, name: str) -> bool:
        """True unless the channel was stopped (STOP CHANNEL) and not started since."""
        return name not in self.stopped


@dataclass
class Network(_TrackedFields):
    """Queue managers by name."""

    _TRACKED = frozenset({"qmgrs"})

    qmgrs: dict[str, QueueManager] = field(default_factory=dict)

    def qmgr(self, name: str) -> QueueManager:
        """The queue manager of that name, created empty when first named."""
        if name not in self.qmgrs:
            self.qmgrs[name] = QueueManager(name)
        return self.qmgrs[name]

    def objects(self) -> Iterator[tuple[QueueManager, MQObject]]:
        """Every queue and channel of every queue manager."""
        for qm in self.qmgrs.values():
            for obj in (*qm.queues.values(), *qm.channels.values()):
                yield qm, obj

    def cluster_queues(self, cluster: str, name: str) -> list[tuple[QueueManager, MQObject]]:
        """The instances of a cluster queue: every queue manager that shares it."""
        return [(qm, q) for qm, q in self.shared_queues(name)
                if not cluster or cluster in cluster_names(q)]

    def shared_queues(self, name: str) -> list[tuple[QueueManager, MQObject]]:
        """Every queue manager's queue `name` that is shared in a cluster, in network order."""
        return cached(self, "shared", self._shared_index).get(name, [])

    def _shared_index(self) -> dict[str, list[tuple[QueueManager, MQObject]]]:
        index: dict[str, list[tuple[QueueManager, MQObject]]] = {}
        for qm in self.qmgrs.values():
            for name, q in qm.queues.items():
                if q.cluster:
                    index.setdefault(name, []).append((qm, q))
        return index

    def receivers(self, channel: str) -> list[QueueManager]:
        """The queue managers defining a RCVR or RQSTR channel of that name, in network order."""
        return cached(self, "receivers", self._receiver_index).get(channel, [])

    def _receiver_index(self) -> dict[str, list[QueueManager]]:
        index: dict[str, list[QueueManager]] = {}
        for qm in self.qmgrs.values():
            for name, ch in qm.channels.items():
                if ch.get("CHLTYPE") in ("RCVR", "RQSTR"):
                    index.setdefault(name, []).append(qm)
        return index

    def clusters(self) -> dict[str, set[str]]:
        """Cluster name -> the queue managers with a CLUSRCVR channel in it."""
        out: dict[str, set[str]] = {}
        for qm in self.qmgrs.values():
            for ch in qm.channels.values():
                if ch.get("CHLTYPE") == "CLUSRCVR" and ch.cluster:
                    out.setdefault(ch.cluster, set()).add(qm.name)
        return out


def cluster_names(obj: MQObject) -> set[str]:
    """The clusters an object is shared in (CLUSTER; CLUSNL is named by the caller)."""
    return {c for c in (obj.cluster,) if c}
