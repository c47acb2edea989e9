"""A queue manager's configuration file, qm.ini, as far as the simulator reads it.

On Multiplatforms some of a queue manager's settings are not MQSC attributes but lines of
its qm.ini (/var/mqm/qmgrs/QMGR/qm.ini): stanzas (`CHANNELS:`) holding `Name=Value` lines,
with `;` or `#` starting a comment, names and stanzas in any case [mq: "Configuration file
stanzas for distributed queuing"]. The simulator reads the CHANNELS stanza's

* `MaxChannels`: how many channels may be current at once (have a status: running,
  starting, retrying, stopped; server-connection channels with a client included). A
  channel that cannot become current does not start.
* `MaxActiveChannels` (default MaxChannels): how many of them may be active (running,
  paused, binding ...: not STARTING, RETRYING or STOPPED). A sending channel that must
  become active when all slots are taken waits in STARTING for one (Channel Not
  Activated), and takes the first slot another channel releases (Channel Activated); an
  inbound channel or a client is turned away (Channel Not Available).

IBM's range for both is 1 to 65 535 (the MQ Appliance's default, 999 999 999, is allowed
too). MQ's own default is MaxChannels=100, but the simulator enforces a limit only when the
qm.ini sets it (MaxActiveChannels alone, or MaxChannels, which MaxActiveChannels then
defaults to): a definitions dump (dmpmqcfg, an MQSC file) does not carry the qm.ini, so a
hub of several hundred channels whose real qm.ini allows them would otherwise be turned away
for a limit nobody configured. Every other stanza and line is kept as written (the file
is written back unchanged); the Log stanza's LogType and LogManagement matter to the
logger events (`traceroute.sim.events`), the rest means nothing to the simulator.
`parse_qm_ini` reads the text; a line it cannot read is a QmIniError naming the file and
line. Pure values and functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: MQ's default MaxChannels [mq] (not enforced unless a qm.ini sets a limit: see above).
MAX_CHANNELS = 100
#: The highest value read (the MQ Appliance's default); IBM documents 65 535 elsewhere. It is
#: also the limit when the qm.ini sets none.
MAX_VALUE = 999_999_999

_STANZA = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*:\s*$")
_ITEM = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*=\s*(.*?)\s*$")
_NUMBERS = {"MAXCHANNELS": "MaxChannels", "MAXACTIVECHANNELS": "MaxActiveChannels"}


class QmIniError(ValueError):
    """A qm.ini line the simulator cannot read: names the file and the line."""

    def __init__(self, source: str, line: int, reason: str) -> None:
        self.source, self.line, self.reason = source, line, reason
        super().__init__(f"{source}:{line}: {reason}")


@dataclass
class QmIni:
    """A queue manager's qm.ini: its text as written and the values the simulator uses."""

    text: str = ""
    #: STANZA -> NAME -> value (upper-cased stanza and names, the last value of a name)
    stanzas: dict[str, dict[str, str]] = field(default_factory=dict)

    def value(self, stanza: str, name: str) -> str | None:
        """A value of the file (names in any case); None when it does not set it."""
        return self.stanzas.get(stanza.upper(), {}).get(name.upper())

    @property
    def max_channels(self) -> int:
        """CHANNELS MaxChannels: how many channels may be current (no limit, MAX_VALUE,
        when the qm.ini does not set it)."""
        value = self.value("CHANNELS", "MaxChannels")
        return int(value) if value is not None else MAX_VALUE

    @property
    def max_active_channels(self) -> int:
        """CHANNELS MaxActiveChannels: how many may be active (default MaxChannels)."""
        value = self.value("CHANNELS", "MaxActiveChannels")
        return int(value) if value is not None else self.max_channels

    @property
    def given(self) -> bool:
        """True when the queue manager has a qm.ini of its own (not just MQ's defaults)."""
        return bool(self.text.strip())


def _uncommented(line: str) -> str:
    cut = [i for i in (line.find(";"), line.find("#")) if i >= 0]
    return line[:min(cut)] if cut else line


def parse_qm_ini(text: str, source: str = "qm.ini") -> QmIni:
    """Read qm.ini text; QmIniError for a line that is neither a stanza, `Name=Value`, a
    comment nor blank, for a value outside a stanza, and for a CHANNELS number that is not
    a whole number from 1 to 999 999 999."""
    stanzas: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    current_name = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = _uncommented(raw)
        if not line.strip():
            continue
        stanza = _STANZA.match(line)
        if stanza:
            current_name = stanza.group(1).upper()
            current = stanzas.setdefault(current_name, {})
            continue
        item = _ITEM.match(line)
        if not item:
            raise QmIniError(source, number, f"{raw.strip()[:80]!r} is neither a stanza "
                             "('CHANNELS:') nor Name=Value")
        if current is None:
            raise QmIniError(source, number, f"{item.group(1)} is outside any stanza "
                             "(begin one with a line such as 'CHANNELS:')")
        name, value = item.group(1).upper(), item.group(2)
        if current_name == "CHANNELS" and name in _NUMBERS:
            if not value.isdigit() or not 1 <= int(value) <= MAX_VALUE:
                raise QmIniError(source, number, f"{_NUMBERS[name]}={value[:40]!r}: a whole "
                                 f"number from 1 to {MAX_VALUE:,} is needed")
            value = str(int(value))
        current[name] = value
    return QmIni(text, stanzas)


def qm_ini_text(max_channels: int | None = None, max_active: int | None = None) -> str:
    """A qm.ini CHANNELS stanza with these values (those given), as MQ's samples lay it
    out."""
    lines = ["CHANNELS:"]
    if max_channels is not None:
        lines.append(f"   MaxChannels={max_channels}")
    if max_active is not None:
        lines.append(f"   MaxActiveChannels={max_active}")
    return "\n".join(lines) + "\n"
