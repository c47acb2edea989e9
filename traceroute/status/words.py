"""MQ's words for the values of status and configuration parameters, both ways.

Channel states, substates and types, monitoring levels, queue types: the number a PCF
response carries and the word DISPLAY CHSTATUS / DISPLAY QSTATUS / dmpmqcfg show for it.
"""

from __future__ import annotations

from pcf import mqc

#: MQIACH_CHANNEL_STATUS -> DISPLAY CHSTATUS's STATUS word (INACTIVE: no status at all).
CHANNEL_STATUS = {
    mqc.MQCHS_INACTIVE: "INACTIVE", mqc.MQCHS_BINDING: "BINDING",
    mqc.MQCHS_STARTING: "STARTING", mqc.MQCHS_RUNNING: "RUNNING",
    mqc.MQCHS_STOPPING: "STOPPING", mqc.MQCHS_RETRYING: "RETRYING",
    mqc.MQCHS_STOPPED: "STOPPED", mqc.MQCHS_REQUESTING: "REQUESTING",
    mqc.MQCHS_PAUSED: "PAUSED", mqc.MQCHS_DISCONNECTED: "DISCONNECTED",
    mqc.MQCHS_INITIALIZING: "INITIALIZING", mqc.MQCHS_SWITCHING: "SWITCHING",
}
#: MQIACH_CHANNEL_SUBSTATE -> SUBSTATE word ('' for MQCHSSTATE_OTHER: shown blank).
CHANNEL_SUBSTATE = {
    mqc.MQCHSSTATE_OTHER: "", mqc.MQCHSSTATE_END_OF_BATCH: "ENDBATCH",
    mqc.MQCHSSTATE_SENDING: "SEND", mqc.MQCHSSTATE_RECEIVING: "RECEIVE",
    mqc.MQCHSSTATE_SERIALIZING: "SERIALIZE", mqc.MQCHSSTATE_RESYNCHING: "RESYNCH",
    mqc.MQCHSSTATE_HEARTBEATING: "HEARTBEAT", mqc.MQCHSSTATE_IN_SCYEXIT: "SCYEXIT",
    mqc.MQCHSSTATE_IN_RCVEXIT: "RCVEXIT", mqc.MQCHSSTATE_IN_SENDEXIT: "SENDEXIT",
    mqc.MQCHSSTATE_IN_MSGEXIT: "MSGEXIT", mqc.MQCHSSTATE_IN_MREXIT: "MREXIT",
    mqc.MQCHSSTATE_IN_CHADEXIT: "CHADEXIT", mqc.MQCHSSTATE_NET_CONNECTING: "NETCONNECT",
    mqc.MQCHSSTATE_SSL_HANDSHAKING: "SSLHANDSHK", mqc.MQCHSSTATE_NAME_SERVER: "NAMESERVER",
    mqc.MQCHSSTATE_IN_MQPUT: "MQPUT", mqc.MQCHSSTATE_IN_MQGET: "MQGET",
    mqc.MQCHSSTATE_IN_MQI_CALL: "MQICALL", mqc.MQCHSSTATE_COMPRESSING: "COMPRESS",
}
#: MQIACH_CHANNEL_TYPE -> MQSC's CHLTYPE word.
CHANNEL_TYPE = {
    mqc.MQCHT_SENDER: "SDR", mqc.MQCHT_SERVER: "SVR", mqc.MQCHT_RECEIVER: "RCVR",
    mqc.MQCHT_REQUESTER: "RQSTR", mqc.MQCHT_CLNTCONN: "CLNTCONN",
    mqc.MQCHT_SVRCONN: "SVRCONN", mqc.MQCHT_CLUSRCVR: "CLUSRCVR",
    mqc.MQCHT_CLUSSDR: "CLUSSDR", mqc.MQCHT_MQTT: "MQTT", mqc.MQCHT_AMQP: "AMQP",
}
#: Monitoring levels (MONQ, MONCHL, MONACLS) -> word.
MONITORING = {mqc.MQMON_Q_MGR: "QMGR", mqc.MQMON_OFF: "OFF", mqc.MQMON_NONE: "NONE",
              mqc.MQMON_LOW: "LOW", mqc.MQMON_MEDIUM: "MEDIUM", mqc.MQMON_HIGH: "HIGH"}
#: MQIA_Q_TYPE -> the MQSC object keyword of that queue type.
QUEUE_TYPE = {mqc.MQQT_LOCAL: "QLOCAL", mqc.MQQT_MODEL: "QMODEL", mqc.MQQT_ALIAS: "QALIAS",
              mqc.MQQT_REMOTE: "QREMOTE", mqc.MQQT_CLUSTER: "QCLUSTER"}
#: Channel instance types (MQIACH_CHANNEL_INSTANCE_TYPE) -> DISPLAY CHSTATUS's word.
INSTANCE_TYPE = {mqc.MQOT_CURRENT_CHANNEL: "CURRENT", mqc.MQOT_SAVED_CHANNEL: "SAVED",
                 mqc.MQOT_SHORT_CHANNEL: "SHORT"}


def reverse(table: dict[int, str]) -> dict[str, int]:
    """word -> number of one of the tables above (the first number where two share a word)."""
    out: dict[str, int] = {}
    for number, word in table.items():
        out.setdefault(word, number)
    return out


def word(table: dict[int, str], value: int) -> str:
    """The word for `value`, or the number itself when MQ has no word for it here."""
    return table.get(value, str(value))
