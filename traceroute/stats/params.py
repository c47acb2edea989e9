"""Every accounting and statistics parameter of the spec: identifier, names, shape, kinds.

One row per (parameter, context): the same identifier can mean a different amqsmon label
in a queue group than at the top of an MQI record (760: PurgedMsgCount / PurgeCount) or in
a channel group (3506: ConnectionName / ConnName).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pcf import mqc


class Kind(Enum):
    """The five message kinds, valued by their amqsmon record label."""

    MQI_STATISTICS = "MQIStatistics"
    QUEUE_STATISTICS = "QueueStatistics"
    CHANNEL_STATISTICS = "ChannelStatistics"
    MQI_ACCOUNTING = "MQIAccounting"
    QUEUE_ACCOUNTING = "QueueAccounting"

    @property
    def accounting(self) -> bool:
        """True for the two accounting kinds."""
        return self in (Kind.MQI_ACCOUNTING, Kind.QUEUE_ACCOUNTING)

    @property
    def object_type(self) -> str:
        """'mqi', 'queue' or 'channel' (the --type values)."""
        return {Kind.MQI_STATISTICS: "mqi", Kind.MQI_ACCOUNTING: "mqi",
                Kind.QUEUE_STATISTICS: "queue", Kind.QUEUE_ACCOUNTING: "queue",
                Kind.CHANNEL_STATISTICS: "channel"}[self]

    @property
    def group(self) -> int | None:
        """The MQCFGR parameter holding one object, or None for MQI records."""
        return GROUP_OF.get(self)


#: (MQCFH.Type, MQCFH.Command) -> kind.
KIND_OF: dict[tuple[int, int], Kind] = {
    (mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_MQI): Kind.MQI_STATISTICS,
    (mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_Q): Kind.QUEUE_STATISTICS,
    (mqc.MQCFT_STATISTICS, mqc.MQCMD_STATISTICS_CHANNEL): Kind.CHANNEL_STATISTICS,
    (mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_MQI): Kind.MQI_ACCOUNTING,
    (mqc.MQCFT_ACCOUNTING, mqc.MQCMD_ACCOUNTING_Q): Kind.QUEUE_ACCOUNTING,
}
HEADER_OF: dict[Kind, tuple[int, int]] = {k: t for t, k in KIND_OF.items()}

GROUP_OF: dict[Kind, int] = {
    Kind.QUEUE_STATISTICS: mqc.MQGACF_Q_STATISTICS_DATA,
    Kind.CHANNEL_STATISTICS: mqc.MQGACF_CHL_STATISTICS_DATA,
    Kind.QUEUE_ACCOUNTING: mqc.MQGACF_Q_ACCOUNTING_DATA,
}

#: amqsmon's group labels.
GROUP_LABEL: dict[Kind, str] = {
    Kind.QUEUE_STATISTICS: "QueueStatistics",
    Kind.CHANNEL_STATISTICS: "ChannelStatistics",
    Kind.QUEUE_ACCOUNTING: "QueueAccounting",
}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter in one context.

    `shape`: '1' scalar; 'P' [non-persistent, persistent]; 'O' by MQOT_*; 'D' by
    MQDISCONNECT_*; 'S', 'U', 'C', 'T', 'W' the spec's other per-index lists.
    `structure`: the structure the spec documents (the decoder keeps what arrives).
    `where`: contexts, 'MA' 'QA' 'MS' 'QS' 'CS' for the top of a message, 'QA.g' 'QS.g'
    'CS.g' inside the kind's group.
    """

    id: int
    name: str
    attr: str
    label: str
    structure: str
    shape: str
    where: frozenset[str]


def _p(id_: int, name: str, attr: str, structure: str, shape: str, where: str,
       label: str | None = None) -> Param:
    return Param(id_, name, attr, label or name, structure, shape, frozenset(where.split()))


_M = mqc
ALL = "MA QA MS QS CS"
CONN = "MA QA"
Q_G = "QA.g QS.g"
MQI_Q = "MA MS QA.g QS.g"

PARAMS: tuple[Param, ...] = (
    # 4.1 header and connection
    _p(_M.MQCA_Q_MGR_NAME, "QueueManager", "queue_manager", "MQCFST", "1", ALL),
    _p(_M.MQCAMO_START_DATE, "IntervalStartDate", "interval_start_date", "MQCFST", "1", ALL),
    _p(_M.MQCAMO_START_TIME, "IntervalStartTime", "interval_start_time", "MQCFST", "1", ALL),
    _p(_M.MQCAMO_END_DATE, "IntervalEndDate", "interval_end_date", "MQCFST", "1", ALL),
    _p(_M.MQCAMO_END_TIME, "IntervalEndTime", "interval_end_time", "MQCFST", "1", ALL),
    _p(_M.MQIA_COMMAND_LEVEL, "CommandLevel", "command_level", "MQCFIN", "1", ALL),
    _p(_M.MQIAMO_OBJECT_COUNT, "ObjectCount", "object_count", "MQCFIN", "1", "QA QS CS"),
    _p(_M.MQBACF_CONNECTION_ID, "ConnectionId", "connection_id", "MQCFBS", "1", CONN),
    _p(_M.MQIACF_SEQUENCE_NUMBER, "SeqNumber", "seq_number", "MQCFIN", "1", CONN),
    _p(_M.MQCACF_APPL_NAME, "ApplicationName", "application_name", "MQCFST", "1", CONN),
    _p(_M.MQIACF_PROCESS_ID, "ApplicationPid", "application_pid", "MQCFIN", "1", CONN),
    _p(_M.MQIACF_THREAD_ID, "ApplicationTid", "application_tid", "MQCFIN", "1", CONN),
    _p(_M.MQCACF_USER_IDENTIFIER, "UserId", "user_id", "MQCFST", "1", CONN),
    _p(_M.MQCAMO_CONN_DATE, "ConnDate", "conn_date", "MQCFST", "1", "MA"),
    _p(_M.MQCAMO_CONN_TIME, "ConnTime", "conn_time", "MQCFST", "1", "MA"),
    _p(_M.MQCACH_CONNECTION_NAME, "ConnName", "conn_name", "MQCFST", "1", CONN),
    _p(_M.MQCACH_CHANNEL_NAME, "ChannelName", "channel_name", "MQCFST", "1", CONN),
    _p(_M.MQCACH_REMOTE_PRODUCT, "RemoteProduct", "remote_product", "MQCFST", "1", "MA"),
    _p(_M.MQCACH_REMOTE_VERSION, "RemoteVersion", "remote_version", "MQCFST", "1", "MA"),
    _p(_M.MQCAMO_DISC_DATE, "DiscDate", "disc_date", "MQCFST", "1", "MA"),
    _p(_M.MQCAMO_DISC_TIME, "DiscTime", "disc_time", "MQCFST", "1", "MA"),
    _p(_M.MQIAMO_DISC_TYPE, "DiscType", "disc_type", "MQCFIN", "1", "MA"),
    # 4.2 MQI counters
    _p(_M.MQIAMO_CONNS, "ConnCount", "conn_count", "MQCFIN", "1", "MS"),
    _p(_M.MQIAMO_CONNS_FAILED, "ConnFailCount", "conn_fail_count", "MQCFIN", "1", "MS"),
    _p(_M.MQIAMO_CONNS_MAX, "ConnsMax", "conns_max", "MQCFIN", "1", "MS"),
    _p(_M.MQIAMO_DISCS, "DiscCount", "disc_count", "MQCFIL", "D", "MS"),
    _p(_M.MQIAMO_OPENS, "OpenCount", "open_count", "MQCFIL", "O", "MA MS QA.g"),
    _p(_M.MQIAMO_OPENS_FAILED, "OpenFailCount", "open_fail_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_CLOSES, "CloseCount", "close_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_CLOSES_FAILED, "CloseFailCount", "close_fail_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_INQS, "InqCount", "inq_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_INQS_FAILED, "InqFailCount", "inq_fail_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_SETS, "SetCount", "set_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_SETS_FAILED, "SetFailCount", "set_fail_count", "MQCFIL", "O", "MA MS"),
    _p(_M.MQIAMO_PUTS, "PutCount", "put_count", "MQCFIL", "P", MQI_Q),
    _p(_M.MQIAMO_PUTS_FAILED, "PutFailCount", "put_fail_count", "MQCFIN", "1", MQI_Q),
    _p(_M.MQIAMO_PUT1S, "Put1Count", "put1_count", "MQCFIL", "P", MQI_Q),
    _p(_M.MQIAMO_PUT1S_FAILED, "Put1FailCount", "put1_fail_count", "MQCFIN", "1", MQI_Q),
    _p(_M.MQIAMO64_PUT_BYTES, "PutBytes", "put_bytes", "MQCFIL64", "P", MQI_Q),
    _p(_M.MQIAMO_GETS, "GetCount", "get_count", "MQCFIL", "P", MQI_Q),
    _p(_M.MQIAMO_GETS_FAILED, "GetFailCount", "get_fail_count", "MQCFIN", "1", MQI_Q),
    _p(_M.MQIAMO64_GET_BYTES, "GetBytes", "get_bytes", "MQCFIL64", "P", MQI_Q),
    _p(_M.MQIAMO_BROWSES, "BrowseCount", "browse_count", "MQCFIL", "P", MQI_Q),
    _p(_M.MQIAMO_BROWSES_FAILED, "BrowseFailCount", "browse_fail_count", "MQCFIN", "1",
       MQI_Q),
    _p(_M.MQIAMO64_BROWSE_BYTES, "BrowseBytes", "browse_bytes", "MQCFIL64", "P", MQI_Q),
    _p(_M.MQIAMO_COMMITS, "CommitCount", "commit_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_COMMITS_FAILED, "CommitFailCount", "commit_fail_count", "MQCFIN", "1",
       "MA MS"),
    _p(_M.MQIAMO_BACKOUTS, "BackCount", "back_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_MSGS_EXPIRED, "ExpiredMsgCount", "expired_msg_count", "MQCFIN", "1",
       "MS QS.g"),
    _p(_M.MQIAMO_MSGS_PURGED, "PurgeCount", "purge_count", "MQCFIN", "1", "MS"),
    _p(_M.MQIAMO_MSGS_PURGED, "PurgeCount", "purge_count", "MQCFIN", "1", "QS.g",
       label="PurgedMsgCount"),
    _p(_M.MQIAMO_SUBS_DUR, "SubCountDur", "sub_count_dur", "MQCFIL", "S", "MA MS"),
    _p(_M.MQIAMO_SUBS_NDUR, "SubCountNDur", "sub_count_ndur", "MQCFIL", "S", "MA MS"),
    _p(_M.MQIAMO_SUBS_FAILED, "SubFailCount", "sub_fail_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_UNSUBS_DUR, "UnsubCountDur", "unsub_count_dur", "MQCFIL", "U", "MA MS"),
    _p(_M.MQIAMO_UNSUBS_NDUR, "UnsubCountNDur", "unsub_count_ndur", "MQCFIL", "U", "MA MS"),
    _p(_M.MQIAMO_UNSUBS_FAILED, "UnsubFailCount", "unsub_fail_count", "MQCFIN", "1",
       "MA MS"),
    _p(_M.MQIAMO_SUBRQS, "SubRqCount", "sub_rq_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_SUBRQS_FAILED, "SubRqFailCount", "sub_rq_fail_count", "MQCFIN", "1",
       "MA MS"),
    _p(_M.MQIAMO_CBS, "CBCount", "cb_count", "MQCFIL", "C", "MA MS QA QA.g"),
    _p(_M.MQIAMO_CBS_FAILED, "CBFailCount", "cb_fail_count", "MQCFIN", "1", "MA MS QA QA.g"),
    _p(_M.MQIAMO_CTLS, "CtlCount", "ctl_count", "MQCFIL", "T", "MA MS"),
    _p(_M.MQIAMO_CTLS_FAILED, "CtlFailCount", "ctl_fail_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_STATS, "StatCount", "stat_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_STATS_FAILED, "StatFailCount", "stat_fail_count", "MQCFIN", "1", "MA MS"),
    _p(_M.MQIAMO_SUB_DUR_HIGHWATER, "SubCountDurHighWater", "sub_count_dur_high_water",
       "MQCFIL", "W", "MS"),
    _p(_M.MQIAMO_SUB_DUR_LOWWATER, "SubCountDurLowWater", "sub_count_dur_low_water",
       "MQCFIL", "W", "MS"),
    _p(_M.MQIAMO_SUB_NDUR_HIGHWATER, "SubCountNDurHighWater", "sub_count_ndur_high_water",
       "MQCFIL", "W", "MS"),
    _p(_M.MQIAMO_SUB_NDUR_LOWWATER, "SubCountNDurLowWater", "sub_count_ndur_low_water",
       "MQCFIL", "W", "MS"),
    _p(_M.MQIAMO_TOPIC_PUTS, "PutTopicCount", "put_topic_count", "MQCFIL", "P", "MA MS"),
    _p(_M.MQIAMO_TOPIC_PUTS_FAILED, "PutTopicFailCount", "put_topic_fail_count", "MQCFIN",
       "1", "MA MS"),
    _p(_M.MQIAMO_TOPIC_PUT1S, "Put1TopicCount", "put1_topic_count", "MQCFIL", "P", "MA MS"),
    _p(_M.MQIAMO_TOPIC_PUT1S_FAILED, "Put1TopicFailCount", "put1_topic_fail_count", "MQCFIN",
       "1", "MA MS"),
    _p(_M.MQIAMO64_TOPIC_PUT_BYTES, "PutTopicBytes", "put_topic_bytes", "MQCFIL64", "P",
       "MA MS"),
    _p(_M.MQIAMO_PUBLISH_MSG_COUNT, "PublishMsgCount", "publish_msg_count", "MQCFIL", "P",
       "MS"),
    _p(_M.MQIAMO64_PUBLISH_MSG_BYTES, "PublishMsgBytes", "publish_msg_bytes", "MQCFIL64", "P",
       "MS"),
    # 4.3 queue group members
    _p(_M.MQCA_Q_NAME, "QName", "q_name", "MQCFST", "1", Q_G, label="QueueName"),
    _p(_M.MQCA_CREATION_DATE, "CreateDate", "create_date", "MQCFST", "1", Q_G),
    _p(_M.MQCA_CREATION_TIME, "CreateTime", "create_time", "MQCFST", "1", Q_G),
    _p(_M.MQIA_Q_TYPE, "QType", "q_type", "MQCFIN", "1", Q_G, label="QueueType"),
    _p(_M.MQIA_DEFINITION_TYPE, "QDefinitionType", "q_definition_type", "MQCFIN", "1", Q_G,
       label="QueueDefinitionType"),
    _p(_M.MQIAMO_Q_MIN_DEPTH, "QMinDepth", "q_min_depth", "MQCFIN", "1", "QS.g"),
    _p(_M.MQIAMO_Q_MAX_DEPTH, "QMaxDepth", "q_max_depth", "MQCFIN", "1", "QS.g"),
    _p(_M.MQIAMO64_AVG_Q_TIME, "AvgTimeOnQ", "avg_time_on_q", "MQCFIL64", "P", "QS.g",
       label="AverageQueueTime"),
    _p(_M.MQIAMO_MSGS_NOT_QUEUED, "NonQueuedMsgCount", "non_queued_msg_count", "MQCFIN", "1",
       "QS.g"),
    _p(_M.MQCAMO_OPEN_DATE, "OpenDate", "open_date", "MQCFST", "1", "QA.g"),
    _p(_M.MQCAMO_OPEN_TIME, "OpenTime", "open_time", "MQCFST", "1", "QA.g"),
    _p(_M.MQCAMO_CLOSE_DATE, "CloseDate", "close_date", "MQCFST", "1", "QA.g"),
    _p(_M.MQCAMO_CLOSE_TIME, "CloseTime", "close_time", "MQCFST", "1", "QA.g"),
    _p(_M.MQIAMO_PUT_MIN_BYTES, "PutMinBytes", "put_min_bytes", "MQCFIL", "P", "QA.g"),
    _p(_M.MQIAMO_PUT_MAX_BYTES, "PutMaxBytes", "put_max_bytes", "MQCFIL", "P", "QA.g"),
    _p(_M.MQIAMO_GET_MIN_BYTES, "GetMinBytes", "get_min_bytes", "MQCFIL", "P", "QA.g"),
    _p(_M.MQIAMO_GET_MAX_BYTES, "GetMaxBytes", "get_max_bytes", "MQCFIL", "P", "QA.g"),
    _p(_M.MQIAMO_BROWSE_MIN_BYTES, "BrowseMinBytes", "browse_min_bytes", "MQCFIL", "P",
       "QA.g"),
    _p(_M.MQIAMO_BROWSE_MAX_BYTES, "BrowseMaxBytes", "browse_max_bytes", "MQCFIL", "P",
       "QA.g"),
    _p(_M.MQIAMO_GENERATED_MSGS, "GeneratedMsgCount", "generated_msg_count", "MQCFIN", "1",
       "QA.g"),
    _p(_M.MQIAMO64_Q_TIME_MIN, "TimeOnQMin", "time_on_q_min", "MQCFIL64", "P", "QA.g"),
    _p(_M.MQIAMO64_Q_TIME_AVG, "TimeOnQAvg", "time_on_q_avg", "MQCFIL64", "P", "QA.g"),
    _p(_M.MQIAMO64_Q_TIME_MAX, "TimeOnQMax", "time_on_q_max", "MQCFIL64", "P", "QA.g"),
    # 4.4 channel group members
    _p(_M.MQCACH_CHANNEL_NAME, "ChannelName", "channel_name", "MQCFST", "1", "CS.g"),
    _p(_M.MQIACH_CHANNEL_TYPE, "ChannelType", "channel_type", "MQCFIN", "1", "CS.g"),
    _p(_M.MQCA_REMOTE_Q_MGR_NAME, "RemoteQmgr", "remote_qmgr", "MQCFST", "1", "CS.g"),
    _p(_M.MQCACH_CONNECTION_NAME, "ConnectionName", "connection_name", "MQCFST", "1", "CS.g"),
    _p(_M.MQIAMO_MSGS, "MsgCount", "msg_count", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO64_BYTES, "TotalBytes", "total_bytes", "MQCFIN64", "1", "CS.g"),
    _p(_M.MQIAMO_NET_TIME_MIN, "NetTimeMin", "net_time_min", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_NET_TIME_AVG, "NetTimeAvg", "net_time_avg", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_NET_TIME_MAX, "NetTimeMax", "net_time_max", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_EXIT_TIME_MIN, "ExitTimeMin", "exit_time_min", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_EXIT_TIME_AVG, "ExitTimeAvg", "exit_time_avg", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_EXIT_TIME_MAX, "ExitTimeMax", "exit_time_max", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_FULL_BATCHES, "FullBatchCount", "full_batch_count", "MQCFIN", "1", "CS.g"),
    _p(_M.MQIAMO_INCOMPLETE_BATCHES, "IncmplBatchCount", "incmpl_batch_count", "MQCFIN", "1",
       "CS.g"),
    _p(_M.MQIAMO_AVG_BATCH_SIZE, "AverageBatchSize", "average_batch_size", "MQCFIN", "1",
       "CS.g"),
    _p(_M.MQIAMO_PUT_RETRIES, "PutRetryCount", "put_retry_count", "MQCFIN", "1", "CS.g"),
)

_CODE = {Kind.MQI_ACCOUNTING: "MA", Kind.QUEUE_ACCOUNTING: "QA", Kind.MQI_STATISTICS: "MS",
         Kind.QUEUE_STATISTICS: "QS", Kind.CHANNEL_STATISTICS: "CS"}


def context(kind: Kind, in_group: bool) -> str:
    """The `Param.where` code of the top of a `kind` message, or of its group."""
    return _CODE[kind] + (".g" if in_group else "")


def params_for(kind: Kind, in_group: bool) -> dict[int, Param]:
    """The parameters of one context, by identifier, in the spec's order."""
    return _TABLES[context(kind, in_group)]


_TABLES: dict[str, dict[int, Param]] = {}
for _kind in Kind:
    for _g in (False, True):
        _TABLES[context(_kind, _g)] = {
            p.id: p for p in PARAMS if context(_kind, _g) in p.where}

#: Named values amqsmon prints instead of numbers (text only; JSON keeps the numbers).
VALUE_NAMES: dict[str, dict[int, str]] = {
    "QType": {1: "Local", 2: "Model", 3: "Alias", 6: "Remote", 7: "Cluster"},
    "QDefinitionType": {1: "Predefined", 2: "PermanentDynamic", 3: "TemporaryDynamic",
                        4: "SharedDynamic"},
    "ChannelType": {1: "Sender", 2: "Server", 3: "Receiver", 4: "Requester", 7: "SvrConn",
                    8: "ClusRcvr", 9: "ClusSdr"},
    "DiscType": {0: "Normal", 1: "Implicit", 2: "QMgr"},
}
