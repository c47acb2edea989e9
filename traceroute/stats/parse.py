"""PCF messages -> accounting/statistics messages -> typed records (pure functions)."""

from __future__ import annotations

from dataclasses import dataclass

import pcf
from pcf import mqc
from pcf.mqmd import MQMD
from traceroute.stats.model import RECORD_CLASSES, Sequence, StatsRecord
from traceroute.stats.params import GROUP_OF, KIND_OF, Kind, params_for


class NotStatistics(Exception):
    """The message is not an accounting or statistics message (it is skipped, not an error)."""


@dataclass(slots=True)
class StatsMessage:
    """One accounting/statistics message: its kind, MQCFH, top-level parameters, groups."""

    kind: Kind
    header: pcf.Header
    top: tuple[pcf.Parameter, ...]
    groups: tuple[pcf.Group, ...]
    source: str = ""
    line: int | None = None

    @property
    def where(self) -> str:
        """'file:line' or the file."""
        return f"{self.source}:{self.line}" if self.line else self.source

    def value(self, parameter: int) -> object:
        """The value of a top-level parameter, or None."""
        for p in self.top:
            if p.parameter == parameter:
                return p.value
        return None

    @property
    def sequence_key(self) -> tuple:
        """What the messages of one MsgSeqNumber sequence share (spec §2.4)."""
        v = self.value
        return (self.kind, v(mqc.MQCA_Q_MGR_NAME), v(mqc.MQCAMO_START_DATE),
                v(mqc.MQCAMO_START_TIME), v(mqc.MQCAMO_END_DATE), v(mqc.MQCAMO_END_TIME),
                v(mqc.MQBACF_CONNECTION_ID), v(mqc.MQIACF_SEQUENCE_NUMBER))


def kind_of(message: pcf.Message) -> Kind | None:
    """The kind of a decoded PCF message, or None when it is not accounting/statistics."""
    return KIND_OF.get((message.header.type, message.header.command))


def stats_message(message: pcf.Message, *, source: str = "", line: int | None = None
                  ) -> StatsMessage:
    """Split a decoded message into top-level parameters and its kind's groups."""
    kind = kind_of(message)
    if kind is None:
        raise NotStatistics(f"MQCFH Type {message.header.type} Command "
                            f"{message.header.command} is not accounting or statistics")
    group_id = GROUP_OF.get(kind)
    top: list[pcf.Parameter] = []
    groups: list[pcf.Group] = []
    for p in message.parameters:
        if group_id is not None and isinstance(p, pcf.Group) and p.parameter == group_id:
            groups.append(p)
        else:
            top.append(p)
    return StatsMessage(kind, message.header, tuple(top), tuple(groups), source, line)


def _looks_like_stats(data: bytes) -> bool:
    """MQCFH Type 21/22 in either byte order (cheap: other messages skip the decoder)."""
    if len(data) < mqc.MQCFH_STRUC_LENGTH:
        return False
    types = {int.from_bytes(data[:4], "little"), int.from_bytes(data[:4], "big")}
    return bool(types & {mqc.MQCFT_STATISTICS, mqc.MQCFT_ACCOUNTING})


def decode_stats(md: MQMD | None, data: bytes, *, source: str = "",
                 line: int | None = None) -> StatsMessage:
    """Decode one message (MQMD optional) into a StatsMessage; PCFError or NotStatistics."""
    if not _looks_like_stats(data):
        raise NotStatistics("no MQCFH of Type MQCFT_STATISTICS or MQCFT_ACCOUNTING")
    if md is not None:
        if md.format.strip() != mqc.MQFMT_ADMIN.strip():
            raise NotStatistics(f"format {md.format.strip()!r} is not MQADMIN")
        message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
                             fmt=md.format)
    else:
        message = pcf.decode(data)
    return stats_message(message, source=source, line=line)


def _fill(record: StatsRecord, params: tuple[pcf.Parameter, ...], kind: Kind,
          in_group: bool) -> None:
    table = params_for(kind, in_group)
    for p in params:
        spec = table.get(p.parameter)
        if spec is None or isinstance(p, pcf.Group):
            record.unknown.append(p)  # not in the spec here, or a group where a value belongs
            continue
        value = p.value
        setattr(record, spec.attr, list(value) if isinstance(value, list) else value)


def records(message: StatsMessage, sequence: Sequence | None = None) -> list[StatsRecord]:
    """The typed records of one message: one for an MQI record, one per group otherwise."""
    cls = RECORD_CLASSES[message.kind]
    seq = sequence or Sequence(sources=(message.where,))
    if message.kind.group is None:
        r = cls(sequence=seq, parameters=message.top)
        _fill(r, message.top, message.kind, False)
        return [r]
    out: list[StatsRecord] = []
    for index, group in enumerate(message.groups):
        members = tuple(group.parameters)
        r = cls(group_index=index, sequence=seq, parameters=message.top, members=members)
        _fill(r, message.top, message.kind, False)
        _fill(r, members, message.kind, True)
        out.append(r)
    return out
