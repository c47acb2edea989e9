"""Accounting and statistics messages (MQCFT_ACCOUNTING / MQCFT_STATISTICS) as typed records.

Holds the parameter table of the spec (`params`), the five record types (`model`),
decoding a PCF message into them (`parse`) and joining MsgSeqNumber sequences (`join`).
Pure functions over values; imports only `pcf` and itself.
"""

from traceroute.stats.join import Joined, SequenceJoiner, join_sequences
from traceroute.stats.model import (
    ChannelStatistics,
    MQIAccounting,
    MQIStatistics,
    QueueAccounting,
    QueueStatistics,
    Sequence,
    StatsRecord,
)
from traceroute.stats.params import Kind
from traceroute.stats.parse import NotStatistics, StatsMessage, decode_stats, records

__all__ = [
    "ChannelStatistics",
    "Joined",
    "Kind",
    "MQIAccounting",
    "MQIStatistics",
    "NotStatistics",
    "QueueAccounting",
    "QueueStatistics",
    "Sequence",
    "SequenceJoiner",
    "StatsMessage",
    "StatsRecord",
    "decode_stats",
    "join_sequences",
    "records",
]
