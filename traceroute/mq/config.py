"""A queue manager's configuration collected live, as the network the simulator and the
audit read (and as MQSC, through `traceroute.sim.mqsc.to_mqsc`).

`collect_config(admin)` asks the Inquire commands for the queue manager, every queue and
every channel (and the channels' status: a STOPPED channel is stopped in the network, as a
STOP CHANNEL line would make it). `to_queue_manager` turns the answers into a
`traceroute.sim.network.QueueManager`: read-only attributes (CRDATE, CURDEPTH, CMDLEVEL
...) kept aside (CMDLEVEL kept with `keep_level`: the simulator and the audit use it),
temporary dynamic queues left out (they end with their connection), passwords and keys that
MQ shows as asterisks left out (`secrets_of` lists them), and SYSTEM.* objects
that are exactly what crtmqm made left out unless `system` (crtmqm makes them on every
queue manager anyway). `defaults=False` keeps only the attributes that differ from IBM's
defaults, the way MQSC files usually give them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from traceroute.mq.admin import Admin
from traceroute.sim.crtmqm import QMGR_DEFAULTS, type_default
from traceroute.sim.network import MQObject, QueueManager, pristine
from traceroute.status.attributes import hidden_secrets, table_for
from traceroute.status.values import ChannelStatus, Definition


@dataclass
class LiveConfig:
    """What the Inquire commands said about one queue manager."""

    qmgr: Definition
    queues: list[Definition] = field(default_factory=list)
    channels: list[Definition] = field(default_factory=list)
    status: list[ChannelStatus] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The queue manager's name."""
        return self.qmgr.name


def collect_config(admin: Admin) -> LiveConfig:
    """The queue manager's definitions and channel status, asked now (only asking)."""
    own = getattr(admin.channel, "_reply_q", "")
    qmgr = admin.queue_manager()
    queues = [q for q in admin.queues("*") if q.name != own
              and not (q.kind == "QLOCAL" and q.attrs.get("DEFTYPE") == "TEMPDYN")]
    return LiveConfig(qmgr, queues, admin.channels("*"), admin.channel_status("*"))


def readonly_of(d: Definition) -> dict[str, str]:
    """The read-only attributes of a definition (CRDATE, CMDLEVEL, CURDEPTH ...)."""
    table = table_for(d.kind)
    return {k: v for k, v in d.attrs.items() if k in table and table[k].readonly}


def secrets_of(config: LiveConfig) -> list[tuple[Definition, str]]:
    """(definition, keyword) of every password or key that is set but that MQ shows only
    as asterisks: what a configuration collected live cannot say."""
    return [(d, k) for d in (config.qmgr, *config.queues, *config.channels)
            for k in hidden_secrets(d.kind, d.attrs)]


def _settable(d: Definition, *, keep_level: bool) -> dict[str, str]:
    table = table_for(d.kind)
    hidden = set(hidden_secrets(d.kind, d.attrs))
    return {k: v for k, v in d.attrs.items() if k not in hidden and (
        not (k in table and table[k].readonly) or (keep_level and k == "CMDLEVEL"))}


def _lean(kind: str, attrs: dict[str, str]) -> dict[str, str]:
    defaults = QMGR_DEFAULTS if kind == "QMGR" else type_default(kind, attrs)
    keep = {"CHLTYPE"} if kind == "CHANNEL" else set()
    return {k: v for k, v in attrs.items() if k in keep or defaults.get(k) != v}


def to_queue_manager(config: LiveConfig, *, system: bool = False, defaults: bool = True,
                     keep_level: bool = False) -> QueueManager:
    """The live configuration as a QueueManager of the simulator's model."""
    attrs = _settable(config.qmgr, keep_level=keep_level)
    qm = QueueManager(config.name, attrs if defaults else _lean("QMGR", attrs))
    for d in (*config.queues, *config.channels):
        own = _settable(d, keep_level=False)
        obj = MQObject(d.kind, d.name, own if defaults else _lean(d.kind, own), "live", 0)
        if not system and d.name.startswith("SYSTEM.") and \
                pristine(MQObject(d.kind, d.name, own)):
            continue
        store = qm.channels if d.kind == "CHANNEL" else qm.queues
        store[d.name] = obj
    qm.stopped = {c.name for c in config.status if c.status == "STOPPED"}
    return qm
