"""Typed accounting and statistics records: one per MQI record or per queue/channel group.

Every parameter of the spec is a field (snake_case of its reference name, None when the
message did not carry it); values keep the form that arrived (a P list stays
[non-persistent, persistent], an O list keeps all its elements). Parameters the spec does
not list stay in `unknown`. `parameters`/`members` keep the message's own structures in
order, for display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from pcf.model import Parameter
from traceroute.stats.params import Kind

#: A counter: a scalar or a list, as the message carried it.
Counter = int | list[int] | None
#: A string parameter: bytes when its CCSID could not be decoded.
Text = str | bytes | None


def iso(date: Text, time: Text) -> str | None:
    """'2020-06-15' + '10.41.58' -> '2020-06-15T10:41:58' (no zone), None when absent."""
    if not isinstance(date, str) or not date:
        return None
    if not isinstance(time, str) or not time:
        return date
    return f"{date}T{time.replace('.', ':')}"


@dataclass(slots=True)
class Sequence:
    """Where a record came from: the MQCFH MsgSeqNumbers joined, and whether all arrived."""

    numbers: tuple[int, ...] = (1,)
    complete: bool = True
    missing: tuple[tuple[int, int], ...] = ()   # (from, to) ranges of MsgSeqNumbers
    sources: tuple[str, ...] = ()


@dataclass(slots=True)
class StatsRecord:
    """What every record carries: queue manager, interval, command level, provenance."""

    KIND: ClassVar[Kind]
    queue_manager: Text = None
    interval_start_date: Text = None
    interval_start_time: Text = None
    interval_end_date: Text = None
    interval_end_time: Text = None
    command_level: Counter = None
    group_index: int | None = None
    sequence: Sequence = field(default_factory=Sequence)
    unknown: list[Parameter] = field(default_factory=list)
    parameters: tuple[Parameter, ...] = field(default=(), repr=False, compare=False)
    members: tuple[Parameter, ...] = field(default=(), repr=False, compare=False)

    @property
    def kind(self) -> Kind:
        """The record's kind."""
        return self.KIND

    @property
    def interval_start(self) -> str | None:
        """IntervalStartDate/Time as ISO 8601 without zone."""
        return iso(self.interval_start_date, self.interval_start_time)

    @property
    def interval_end(self) -> str | None:
        """IntervalEndDate/Time as ISO 8601 without zone."""
        return iso(self.interval_end_date, self.interval_end_time)

    @property
    def object_name(self) -> str | None:
        """The queue or channel the record is about; None for MQI records."""
        return None


@dataclass(slots=True)
class MQIStatistics(StatsRecord):
    """MQCMD_STATISTICS_MQI: the queue manager's MQI work in one interval."""

    KIND: ClassVar[Kind] = Kind.MQI_STATISTICS
    conn_count: Counter = None
    conn_fail_count: Counter = None
    conns_max: Counter = None
    disc_count: Counter = None
    open_count: Counter = None
    open_fail_count: Counter = None
    close_count: Counter = None
    close_fail_count: Counter = None
    inq_count: Counter = None
    inq_fail_count: Counter = None
    set_count: Counter = None
    set_fail_count: Counter = None
    put_count: Counter = None
    put_fail_count: Counter = None
    put1_count: Counter = None
    put1_fail_count: Counter = None
    put_bytes: Counter = None
    get_count: Counter = None
    get_fail_count: Counter = None
    get_bytes: Counter = None
    browse_count: Counter = None
    browse_fail_count: Counter = None
    browse_bytes: Counter = None
    commit_count: Counter = None
    commit_fail_count: Counter = None
    back_count: Counter = None
    expired_msg_count: Counter = None
    purge_count: Counter = None
    sub_count_dur: Counter = None
    sub_count_ndur: Counter = None
    sub_fail_count: Counter = None
    unsub_count_dur: Counter = None
    unsub_count_ndur: Counter = None
    unsub_fail_count: Counter = None
    sub_rq_count: Counter = None
    sub_rq_fail_count: Counter = None
    cb_count: Counter = None
    cb_fail_count: Counter = None
    ctl_count: Counter = None
    ctl_fail_count: Counter = None
    stat_count: Counter = None
    stat_fail_count: Counter = None
    sub_count_dur_high_water: Counter = None
    sub_count_dur_low_water: Counter = None
    sub_count_ndur_high_water: Counter = None
    sub_count_ndur_low_water: Counter = None
    put_topic_count: Counter = None
    put_topic_fail_count: Counter = None
    put1_topic_count: Counter = None
    put1_topic_fail_count: Counter = None
    put_topic_bytes: Counter = None
    publish_msg_count: Counter = None
    publish_msg_bytes: Counter = None

@dataclass(slots=True)
class QueueStatistics(StatsRecord):
    """MQCMD_STATISTICS_Q: one queue's QStatisticsData in one interval."""

    KIND: ClassVar[Kind] = Kind.QUEUE_STATISTICS
    object_count: Counter = None
    put_count: Counter = None
    put_fail_count: Counter = None
    put1_count: Counter = None
    put1_fail_count: Counter = None
    put_bytes: Counter = None
    get_count: Counter = None
    get_fail_count: Counter = None
    get_bytes: Counter = None
    browse_count: Counter = None
    browse_fail_count: Counter = None
    browse_bytes: Counter = None
    expired_msg_count: Counter = None
    purge_count: Counter = None
    q_name: Text = None
    create_date: Text = None
    create_time: Text = None
    q_type: Counter = None
    q_definition_type: Counter = None
    q_min_depth: Counter = None
    q_max_depth: Counter = None
    avg_time_on_q: Counter = None
    non_queued_msg_count: Counter = None

    @property
    def object_name(self) -> str | None:
        """The queue name."""
        return self.q_name if isinstance(self.q_name, str) else None

@dataclass(slots=True)
class ChannelStatistics(StatsRecord):
    """MQCMD_STATISTICS_CHANNEL: one channel's ChlStatisticsData in one interval."""

    KIND: ClassVar[Kind] = Kind.CHANNEL_STATISTICS
    object_count: Counter = None
    channel_name: Text = None
    channel_type: Counter = None
    remote_qmgr: Text = None
    connection_name: Text = None
    msg_count: Counter = None
    total_bytes: Counter = None
    net_time_min: Counter = None
    net_time_avg: Counter = None
    net_time_max: Counter = None
    exit_time_min: Counter = None
    exit_time_avg: Counter = None
    exit_time_max: Counter = None
    full_batch_count: Counter = None
    incmpl_batch_count: Counter = None
    average_batch_size: Counter = None
    put_retry_count: Counter = None

    @property
    def object_name(self) -> str | None:
        """The channel name."""
        return self.channel_name if isinstance(self.channel_name, str) else None

@dataclass(slots=True)
class MQIAccounting(StatsRecord):
    """MQCMD_ACCOUNTING_MQI: one connection's MQI work."""

    KIND: ClassVar[Kind] = Kind.MQI_ACCOUNTING
    connection_id: bytes | None = None
    seq_number: Counter = None
    application_name: Text = None
    application_pid: Counter = None
    application_tid: Counter = None
    user_id: Text = None
    conn_date: Text = None
    conn_time: Text = None
    conn_name: Text = None
    channel_name: Text = None
    remote_product: Text = None
    remote_version: Text = None
    disc_date: Text = None
    disc_time: Text = None
    disc_type: Counter = None
    open_count: Counter = None
    open_fail_count: Counter = None
    close_count: Counter = None
    close_fail_count: Counter = None
    inq_count: Counter = None
    inq_fail_count: Counter = None
    set_count: Counter = None
    set_fail_count: Counter = None
    put_count: Counter = None
    put_fail_count: Counter = None
    put1_count: Counter = None
    put1_fail_count: Counter = None
    put_bytes: Counter = None
    get_count: Counter = None
    get_fail_count: Counter = None
    get_bytes: Counter = None
    browse_count: Counter = None
    browse_fail_count: Counter = None
    browse_bytes: Counter = None
    commit_count: Counter = None
    commit_fail_count: Counter = None
    back_count: Counter = None
    sub_count_dur: Counter = None
    sub_count_ndur: Counter = None
    sub_fail_count: Counter = None
    unsub_count_dur: Counter = None
    unsub_count_ndur: Counter = None
    unsub_fail_count: Counter = None
    sub_rq_count: Counter = None
    sub_rq_fail_count: Counter = None
    cb_count: Counter = None
    cb_fail_count: Counter = None
    ctl_count: Counter = None
    ctl_fail_count: Counter = None
    stat_count: Counter = None
    stat_fail_count: Counter = None
    put_topic_count: Counter = None
    put_topic_fail_count: Counter = None
    put1_topic_count: Counter = None
    put1_topic_fail_count: Counter = None
    put_topic_bytes: Counter = None

@dataclass(slots=True)
class QueueAccounting(StatsRecord):
    """MQCMD_ACCOUNTING_Q: one connection's QAccountingData for one queue."""

    KIND: ClassVar[Kind] = Kind.QUEUE_ACCOUNTING
    object_count: Counter = None
    connection_id: bytes | None = None
    seq_number: Counter = None
    application_name: Text = None
    application_pid: Counter = None
    application_tid: Counter = None
    user_id: Text = None
    conn_name: Text = None
    channel_name: Text = None
    cb_count: Counter = None
    cb_fail_count: Counter = None
    open_count: Counter = None
    put_count: Counter = None
    put_fail_count: Counter = None
    put1_count: Counter = None
    put1_fail_count: Counter = None
    put_bytes: Counter = None
    get_count: Counter = None
    get_fail_count: Counter = None
    get_bytes: Counter = None
    browse_count: Counter = None
    browse_fail_count: Counter = None
    browse_bytes: Counter = None
    q_name: Text = None
    create_date: Text = None
    create_time: Text = None
    q_type: Counter = None
    q_definition_type: Counter = None
    open_date: Text = None
    open_time: Text = None
    close_date: Text = None
    close_time: Text = None
    put_min_bytes: Counter = None
    put_max_bytes: Counter = None
    get_min_bytes: Counter = None
    get_max_bytes: Counter = None
    browse_min_bytes: Counter = None
    browse_max_bytes: Counter = None
    generated_msg_count: Counter = None
    time_on_q_min: Counter = None
    time_on_q_avg: Counter = None
    time_on_q_max: Counter = None

    @property
    def object_name(self) -> str | None:
        """The queue name."""
        return self.q_name if isinstance(self.q_name, str) else None


RECORD_CLASSES: dict[Kind, type[StatsRecord]] = {
    cls.KIND: cls for cls in (MQIStatistics, QueueStatistics, ChannelStatistics, MQIAccounting,
                              QueueAccounting)
}
