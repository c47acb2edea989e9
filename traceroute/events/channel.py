"""Channel events (SYSTEM.ADMIN.CHANNEL.EVENT) as values: started, stopped, stopped by user,
SSL error, blocked, auto-definition OK/error, not available, conversion error, activated and
not activated.

Each is built from the catalog (`traceroute.events.catalog`): exactly the parameters IBM
lists, in the order a real queue manager writes them (the captures 2282, 2283 and 2279:
the channel's name right after the queue manager's, then its transmission queue and
connection name). Pure functions.
"""

from __future__ import annotations

from datetime import datetime

from pcf import mqc
from traceroute.events.catalog import BY_NAME, build
from traceroute.events.model import Event

#: A channel type (CHLTYPE) that has a transmission queue in its events [mq].
_XMITQ_TYPES = ("SDR", "SVR", "CLUSSDR", "CLUSRCVR")


def started(qmgr: str, channel: str, when: datetime | None, *, xmitq: str = "",
            conname: str = "") -> Event:
    """Channel Started: an instance began (with its xmitq and connection), or START CHANNEL
    (the command's event names the channel only)."""
    return build(BY_NAME["Channel Started"], qmgr,
                 _where(ChannelName=channel, XmitQName=xmitq, ConnectionName=conname), when)


def stopped(qmgr: str, channel: str, when: datetime | None, *, qualifier: int,
            error_id: int = 0, ints: tuple[int, int] = (0, 0),
            strs: tuple[str, str, str] = ("", "", ""), xmitq: str = "",
            conname: str = "") -> Event:
    """Channel Stopped: an instance ended, or could not start (MQRQ_CHANNEL_STOPPED_OK,
    _ERROR, _RETRY, _DISABLED), with the AMQ message it logged and its inserts."""
    return build(BY_NAME["Channel Stopped"], qmgr, {
        **_where(ChannelName=channel, XmitQName=xmitq, ConnectionName=conname),
        "ReasonQualifier": qualifier, "ErrorIdentifier": error_id, "AuxErrorDataInt1": ints[0],
        "AuxErrorDataInt2": ints[1], "AuxErrorDataStr1": strs[0], "AuxErrorDataStr2": strs[1],
        "AuxErrorDataStr3": strs[2]}, when)


def stopped_by_user(qmgr: str, channel: str, when: datetime | None) -> Event:
    """Channel Stopped By User: STOP CHANNEL ended it (it is STOPPED)."""
    return build(BY_NAME["Channel Stopped By User"], qmgr, {
        "ChannelName": channel, "ReasonQualifier": mqc.MQRQ_CHANNEL_STOPPED_DISABLED}, when)


def ssl_error(qmgr: str, channel: str, when: datetime | None, *, qualifier: int,
              conname: str = "", xmitq: str = "", peer: str = "") -> Event:
    """Channel SSL Error: the TLS handshake failed (a CipherSpec mismatch ...)."""
    return build(BY_NAME["Channel SSL Error"], qmgr, _where(
        ChannelName=channel, XmitQName=xmitq, ConnectionName=conname,
        ReasonQualifier=qualifier, SSLPeerName=peer), when)


def blocked(qmgr: str, conname: str, when: datetime | None, *, qualifier: int,
            channel: str = "", user: str = "", remote_qmgr: str = "", client_user: str = "",
            appl_type: int | None = None, appl_name: str = "") -> Event:
    """Channel Blocked: a channel authentication record refused an inbound channel."""
    return build(BY_NAME["Channel Blocked"], qmgr, _where(
        ChannelName=channel, ConnectionName=conname, ReasonQualifier=qualifier,
        UserIdentifier=user, RemoteQMgrName=remote_qmgr, ClientUserIdentifier=client_user,
        ApplType=appl_type, ApplName=appl_name), when)


def auto_definition(qmgr: str, channel: str, when: datetime | None, *, channel_type: int,
                    conname: str, error_id: int | None = None) -> Event:
    """Channel Auto-definition OK (or Error, with `error_id`: the MQRC_* of the attempt)."""
    if error_id is None:
        return build(BY_NAME["Channel Auto-definition OK"], qmgr, {
            "ChannelName": channel, "ChannelType": channel_type, "ConnectionName": conname},
            when)
    return build(BY_NAME["Channel Auto-definition Error"], qmgr, {
        "ChannelName": channel, "ChannelType": channel_type, "ErrorIdentifier": error_id,
        "ConnectionName": conname}, when)


#: Channel Not Available's ReasonQualifier -> the parameter holding the limit reached.
_LIMITS = {mqc.MQRQ_MAX_ACTIVE_CHANNELS: "MaximumActiveChannels",
           mqc.MQRQ_MAX_CHANNELS: "MaximumChannels",
           mqc.MQRQ_SVRCONN_INST_LIMIT: "MaximumInstances",
           mqc.MQRQ_CLIENT_INST_LIMIT: "MaximumClientInstances"}


def not_available(qmgr: str, channel: str, when: datetime | None, *, conname: str,
                  qualifier: int, limit: int) -> Event:
    """Channel Not Available: an inbound channel turned away, its queue manager's
    MaxActiveChannels / MaxChannels (qm.ini) or its SVRCONN's MAXINST / MAXINSTC reached
    (the qualifier says which; the limit is in its own parameter)."""
    return build(BY_NAME["Channel Not Available"], qmgr, {
        "ChannelName": channel, "ConnectionName": conname, "ReasonQualifier": qualifier,
        _LIMITS[qualifier]: limit}, when)


def activated(qmgr: str, channel: str, when: datetime | None, *, active: bool,
              xmitq: str = "", conname: str = "") -> Event:
    """Channel Activated (`active`: it got the active slot it waited for) or Channel Not
    Activated (it must wait for one: MaxActiveChannels reached)."""
    name = "Channel Activated" if active else "Channel Not Activated"
    return build(BY_NAME[name], qmgr,
                 _where(ChannelName=channel, XmitQName=xmitq, ConnectionName=conname), when)


def conversion_error(qmgr: str, channel: str, when: datetime | None, *, reason: int,
                     fmt: str, xmitq: str = "", conname: str = "") -> Event:
    """Channel Conversion Error: the sending MCA's MQGET could not convert a message."""
    return build(BY_NAME["Channel Conversion Error"], qmgr, _where(
        ChannelName=channel, XmitQName=xmitq, ConnectionName=conname,
        ConversionReasonCode=reason, Format=fmt), when)


def xmitq_of(chltype: str, xmitq: str) -> str:
    """The transmission queue a channel's events name ('' for receiving channels)."""
    return xmitq if chltype in _XMITQ_TYPES else ""


def _where(**values: object) -> dict[str, object]:
    """The values given: blank optional names and None left out."""
    return {k: v for k, v in values.items() if v is not None and v != ""}
