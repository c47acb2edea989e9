"""Commands applied to a network's queue managers as MQ applies them."""

from __future__ import annotations

from traceroute.sim.mqsc.syntax import (
    COMMAND_OPTIONS,
    IGNORED_KINDS,
    Command,
    _Header,
    _items,
)
from traceroute.sim.network import QUEUE_KINDS, MQObject, Network, QueueManager


def _object_attrs(command: Command) -> dict[str, str]:
    return {k: v for k, v in command.attrs.items() if k not in COMMAND_OPTIONS}


def _where(obj: MQObject) -> str:
    return f"{obj.source}, line {obj.line}" if obj.line else obj.source or "elsewhere"


class _Applier:
    """Applies commands to the queue managers of a network."""

    def __init__(self, network: Network, qmgr: str | None) -> None:
        self.network = network
        self.current = qmgr

    def header(self, header: _Header) -> None:
        self.current = header.name
        self.network.qmgr(header.name)

    def qmgr(self, command: Command) -> QueueManager:
        if self.current is None:
            raise command.error("no queue manager is named for this command: give qmgr= or a "
                                "'* Queue manager name: NAME' comment before it")
        return self.network.qmgr(self.current)

    def apply(self, command: Command) -> None:
        verb, kind = command.verb, command.kind
        if verb in ("START", "STOP") and kind == "CHANNEL":
            self.channel_status(command)
        elif verb in ("DEFINE", "ALTER", "DELETE") and kind not in IGNORED_KINDS:
            if kind == "QMGR":
                self.qmgr(command).attrs.update(_object_attrs(command))
            elif command.name is not None:
                self.change(command)

    def channel_status(self, command: Command) -> None:
        qm = self.qmgr(command)
        assert command.name is not None
        if command.verb == "START":
            qm.stopped.discard(command.name)
        elif command.attrs.get("STATUS", "STOPPED") != "INACTIVE":
            qm.stopped.add(command.name)

    def change(self, command: Command) -> None:
        qm = self.qmgr(command)
        name, kind = command.name, command.kind
        assert name is not None
        store: dict = (qm.queues if kind in QUEUE_KINDS
                       else qm.channels if kind == "CHANNEL" else qm.others)
        key = name if store is not qm.others else (kind, name)
        existing: MQObject | None = store.get(key)
        if existing is None and command.verb != "DEFINE":
            raise command.error(f"{kind} {name} is not defined on {qm.name} (MQ: AMQ8147E)")
        if existing is not None and existing.kind != kind:
            raise command.error(f"{name} on {qm.name} is a {existing.kind} (defined at "
                                f"{_where(existing)}): the queue types share one name space "
                                f"and {command.verb} {kind} cannot change the type; DELETE "
                                "it first")
        if command.verb == "DELETE":
            del store[key]
            if kind == "CHANNEL":
                qm.stopped.discard(name)
            return
        attrs = _object_attrs(command)
        if existing is not None and command.verb == "ALTER":
            self.check_chltype(command, existing, attrs)
            existing.attrs.update(attrs)
            return
        if existing is not None and "REPLACE" not in command.attrs:
            raise command.error(f"{kind} {name} already exists on {qm.name} (defined at "
                                f"{_where(existing)}); MQ refuses to define it again without "
                                "REPLACE (AMQ8150E)")
        if "LIKE" in command.attrs:
            attrs = {**self.like(command, store, qm), **attrs}
        if kind == "CHANNEL":
            if not attrs.get("CHLTYPE"):
                raise command.error(f"DEFINE CHANNEL({name}) needs CHLTYPE")
            if existing is not None:
                self.check_chltype(command, existing, attrs)
        store[key] = MQObject(kind, name, attrs, command.source, command.line)

    @staticmethod
    def check_chltype(command: Command, existing: MQObject, attrs: dict[str, str]) -> None:
        old, new = existing.get("CHLTYPE"), attrs.get("CHLTYPE", existing.get("CHLTYPE"))
        if existing.kind == "CHANNEL" and old and new != old:
            raise command.error(f"channel {existing.name} is a {old} channel (defined at "
                                f"{_where(existing)}); its CHLTYPE cannot become {new}: "
                                "DELETE it first", "CHLTYPE")

    @staticmethod
    def like(command: Command, store: dict, qm: QueueManager) -> dict[str, str]:
        model_name, kind = command.attrs["LIKE"], command.kind
        model = store.get(model_name if store is not qm.others else (kind, model_name))
        if model is not None and model.kind == kind:
            return dict(model.attrs)
        if model is None and model_name.startswith("SYSTEM."):
            return {}
        raise command.error(f"LIKE({model_name}): no {kind} of that name is defined on "
                            f"{qm.name}", "LIKE")


def parse_mqsc(text: str, *, source: str = "<mqsc>", qmgr: str | None = None,
               network: Network | None = None) -> Network:
    """Apply MQSC text to `network` (a new one if None); `qmgr` until a header names one."""
    items = list(_items(text, source))
    network = network if network is not None else Network()
    applier = _Applier(network, qmgr)
    for item in items:
        if isinstance(item, _Header):
            applier.header(item)
        else:
            applier.apply(item)
    return network

