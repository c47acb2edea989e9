"""IBM's Grafana dashboards for queue and channel status work on mqroute's metrics: every
expression they hold names metrics mqroute exports, with the labels they select and group
by, and the label values they match; every statistics name metrics.txt lists is exported
under mq_prometheus' spelling. (The expressions are in mq_metric_samples.py, written down
from the dashboards' JSON.)"""

from __future__ import annotations

import re

import pytest

from graph.metrics.catalog import BY_NAME, IBM, count_name
from graph.metrics.labels import constant_label
from pcf import mqc
from tests.graph.metrics import mq_metric_samples as ibm

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and",
            "or", "unless", "offset"}
GROUPING = r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)"


def parse(expr: str) -> tuple[set[str], set[str], set[tuple[str, str]]]:
    """(metric names, label names, (label, value) matched) of a PromQL expression."""
    labels: set[str] = set()
    matched: set[tuple[str, str]] = set()
    for block in re.findall(r"\{([^}]*)\}", expr):
        for name, value in re.findall(r'([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)\s*"([^"]*)"', block):
            labels.add(name)
            matched.add((name, value))
    for block in re.findall(GROUPING, expr):
        labels |= {x.strip() for x in block.split(",") if x.strip()}
    bare = re.sub(GROUPING, " ", re.sub(r"\{[^}]*\}", " ", expr))
    names = {n for n in re.findall(r"\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()", bare)
             if n not in KEYWORDS}
    return names, labels, matched


def test_the_parser():
    assert parse('count by (channel, qmgr)(ibmmq_channel_status{type!="SVRCONN"}) + 0') == (
        {"ibmmq_channel_status"}, {"channel", "qmgr", "type"}, {("type", "SVRCONN")})
    assert parse("(ibmmq_queue_depth * 100 )/ ibmmq_queue_attribute_max_depth")[0] == {
        "ibmmq_queue_depth", "ibmmq_queue_attribute_max_depth"}


#: Label values a dashboard matches, and the MQ value mqroute's label carries for it.
LABEL_VALUES = {("type", "SVRCONN"): constant_label(mqc.MQCHT_SVRCONN, "MQCHT"),
                ("type", "SENDER"): constant_label(mqc.MQCHT_SENDER, "MQCHT")}


@pytest.mark.parametrize(("panel", "expr"), [*ibm.QUEUE_STATUS, *ibm.CHANNEL_STATUS],
                         ids=lambda x: x if len(x) < 40 else x[:40])
def test_every_dashboard_expression_names_exported_metrics(panel, expr):
    names, labels, matched = parse(expr)
    assert names, expr
    for name in names:
        fam = BY_NAME.get(name)
        assert fam is not None, f"{panel}: {name} is not exported"
        assert fam.origin == IBM
        assert labels <= set(fam.labels), f"{panel}: {name} lacks {labels - set(fam.labels)}"
    for pair in matched:
        assert LABEL_VALUES[pair] == pair[1]


def test_label_names_are_mq_prometheus_ones():
    assert set(BY_NAME["ibmmq_queue_depth"].labels) == set(ibm.QUEUE_LABELS)
    assert set(BY_NAME["ibmmq_channel_status"].labels) == set(ibm.CHANNEL_LABELS)
    assert set(BY_NAME["ibmmq_qmgr_status"].labels) == set(ibm.QMGR_LABELS)


def test_every_statistics_name_of_metrics_txt_is_exported():
    missing = []
    for series, names in (("queue", ibm.STATISTICS_QUEUE), ("qmgr", ibm.STATISTICS_QMGR)):
        for n in names:
            if f"ibmmq_{series}_{n}" not in BY_NAME and count_name(series, n) not in BY_NAME:
                missing.append((series, n))
    assert not missing
    ours = {f.name for f in BY_NAME.values() if f.source == "statistics" and f.origin == IBM}
    theirs = {f"ibmmq_{s}_{n}" if f"ibmmq_{s}_{n}" in BY_NAME else count_name(s, n)
              for s, names in (("queue", ibm.STATISTICS_QUEUE), ("qmgr", ibm.STATISTICS_QMGR))
              for n in names}
    assert ours == theirs  # nothing invented under their prefix


#: Status attributes metrics.txt lists that mqroute does not export, and why.
NOT_EXPORTED = {
    ("queue", "mqget_count"): "z/OS RESET QSTATS (useResetQStats): resets the queue's "
                              "statistics, which a read-only exporter must not do",
    ("queue", "mqput_mqput1_count"): "z/OS RESET QSTATS, as mqget_count",
    ("queue", "hi_depth"): "z/OS RESET QSTATS, as mqget_count",
    ("channel", "connname"): "a label of every channel metric, not a metric",
    ("channel", "jobname"): "a label, not a metric",
    ("channel", "rqmname"): "a label, not a metric",
    ("channel", "sslciph"): "a label, not a metric",
    ("channel", "security_protocol"): "the negotiated TLS protocol: the simulated estate has "
                                      "no TLS",
    **{("qmgr", n): "logger and channel-initiator limits of DISPLAY QMSTATUS LOG / QMGR "
                    "MAXCHL: no queue manager logs or channel limits in the simulated estate"
       for n in ("active_services", "log_extent_archive", "log_size_archive",
                 "log_extent_current", "log_extent_media", "log_size_media",
                 "log_extent_restart", "log_size_restart", "log_size_reusable",
                 "log_start_epoch", "max_active_channels", "max_channels",
                 "max_tcp_channels")},
}


def test_status_attributes_exported_or_said_why_not():
    for series, names in (("queue", ibm.STATUS_QUEUE), ("channel", ibm.STATUS_CHANNEL),
                          ("qmgr", ibm.STATUS_QMGR)):
        for n in names:
            name = f"ibmmq_{series}_{n}"
            assert (name in BY_NAME) != ((series, n) in NOT_EXPORTED), name


def test_the_documentation_lists_every_metric():
    from pathlib import Path

    from graph.metrics.catalog import markdown_table

    page = (Path(__file__).resolve().parents[3] / "docs" / "metrics.md").read_text()
    assert markdown_table() in page, (
        "docs/metrics.md's table is not the catalog's: regenerate it with python -c "
        "'from graph.metrics.catalog import markdown_table; print(markdown_table())'")


#: Dashboard metrics a simulated estate's status cannot give, and why (each is exported when
#: the source has it).
CANNOT_KNOW = {
    "ibmmq_channel_attribute_max_inst": "MAXINST of SVRCONN channel instances (the panels "
                                        "select type=SVRCONN): the simulator's client "
                                        "connections have no SVRCONN channel status",
    "ibmmq_channel_attribute_max_instc": "MAXINSTC: as attribute_max_inst",
}


def test_what_a_simulated_estate_fills_and_what_it_cannot_know():
    """Every metric the two dashboards use has values from a simulated estate (monitoring
    on, a channel that ran twice, messages put and got), or is listed with the reason."""
    from datetime import UTC, datetime

    from graph.metrics.live import collect
    from graph.metrics.status import Deltas, status_snapshot
    from pcf.mqmd import MQMD
    from tests.graph.metrics.test_live_metrics import admins, estate

    sim = estate(monitoring=True)
    deltas = Deltas()
    ask = admins(sim)

    def snapshot():
        facts = collect(ask, ["QM1", "QM2"])
        return status_snapshot(facts, now=datetime.now(UTC), deltas=deltas)

    for _ in range(2):
        for _ in range(3):
            assert sim.put("QM1", "TARG.AT.QM2", MQMD(format="MQSTR"), b"x").ok
        sim.run(until=sim.now + 30)
        while sim.get("QM2", "TARGET.Q") is not None:
            pass
        snap = snapshot()
    used = set()
    for _, expr in (*ibm.QUEUE_STATUS, *ibm.CHANNEL_STATUS):
        used |= parse(expr)[0]
    empty = {name for name in used if not snap.series.get(name)}
    assert empty == set(CANNOT_KNOW), empty ^ set(CANNOT_KNOW)


def our_dashboard() -> list[tuple[str, str]]:
    """(panel, expression) of mqroute's own Grafana dashboard (docs/grafana/mqroute.json)."""
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parents[3] / "docs" / "grafana" /
                      "mqroute.json").read_text())
    return [(p["title"], t["expr"]) for p in doc["panels"] for t in p["targets"]]


def test_our_dashboard_names_exported_metrics_and_their_labels():
    for panel, expr in our_dashboard():
        names, labels, _ = parse(expr)
        assert names, (panel, expr)
        for name in names:
            base = re.sub(r"_(bucket|count|sum)$", "", name)
            fam = BY_NAME.get(name) or BY_NAME.get(base)
            assert fam is not None, f"{panel}: {name} is not exported"
            assert labels - {"le"} <= set(fam.labels), (panel, name, labels)
