"""MQ constant names by family, for display."""

from __future__ import annotations

from pcf import mqc
from pcf.names import describe_value, flags_of, name_of, parameter_name


def test_families():
    assert name_of(4, "MQOPER") == "MQOPER_PUT"
    assert name_of(269, "MQFB") == "MQFB_ACTIVITY"
    assert name_of(12, "MQCFT") == "MQCFT_REPORT"
    assert name_of(75, "MQCMD") == "MQCMD_TRACE_ROUTE"
    assert name_of(123456, "MQOPER") is None


def test_parameter_ids_across_families():
    assert parameter_name(3024) == "MQCACF_APPL_NAME"
    assert parameter_name(2015) == "MQCA_Q_MGR_NAME"
    assert parameter_name(3501) == "MQCACH_CHANNEL_NAME"
    assert parameter_name(1240) == "MQIACF_OPERATION_TYPE"
    assert parameter_name(1511) == "MQIACH_CHANNEL_TYPE"
    assert parameter_name(7013) == "MQBACF_MSG_ID"
    assert parameter_name(8005) == "MQGACF_ACTIVITY"
    assert parameter_name(1248) == "MQIACF_MSG_LENGTH"
    assert parameter_name(65537) is None  # user parameters stay numeric


def test_flags_and_values():
    report = mqc.MQRO_ACTIVITY | mqc.MQRO_COA_WITH_DATA | mqc.MQRO_DISCARD_MSG
    assert flags_of(report, "MQRO") == ["MQRO_COA_WITH_DATA", "MQRO_ACTIVITY",
                                        "MQRO_DISCARD_MSG"]
    assert flags_of(0, "MQRO") == ["MQRO_NONE"]
    assert flags_of(0x40000000, "MQMF") == ["0x40000000"]
    assert describe_value(mqc.MQIACF_OPERATION_TYPE, 8) == "MQOPER_SEND"
    assert describe_value(mqc.MQIACF_ENCODING, 546) == "MQENC_REVERSED"
    assert describe_value(mqc.MQIA_APPL_TYPE, 6) == "MQAT_UNIX"
    assert describe_value(mqc.MQIACF_ROUTE_DETAIL, 8) == "MQROUTE_DETAIL_MEDIUM"
    assert describe_value(mqc.MQIACF_MSG_LENGTH, 8) is None
