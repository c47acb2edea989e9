# %% [markdown]
# # Estate health from accounting and statistics messages
#
# Many estates already collect the statistics every distributed queue manager can write on
# `SYSTEM.ADMIN.STATISTICS.QUEUE` (MQI, queue and channel statistics, every `STATINT`
# seconds). They need no cooperation from any message: they say which channels carry the
# traffic, where messages wait, and which queues fill and are never read — the background
# to have before looking for one lost message.
#
# Here a simulated day on 60 queue managers (hub and spoke) with statistics switched on:
# 2,000 messages between applications, consumers that empty their queues every hour —
# except one queue nobody reads — and a channel stopped until 14:00. The simulator's
# queue managers write the statistics; we read them back as an administrator would
# (`mqroute stats`), turn them into the tables `mqroute analyze` writes, and draw the
# busiest channels, where messages wait, and the queues that fill.

# %%
import random
from datetime import datetime
from pathlib import Path

from traceroute import Simulator
from traceroute.sim.netgen import generate
from traceroute.sim.statistics import StatisticsCollector

gen = generate("hub", 60, seed=19, faults={"stopped_channel": 1})
stopped = gen.faults[0]
print(gen.stats())
print(f"planted {stopped.kind}: {stopped.detail}")

# what an administrator types on every queue manager (runmqsc):
#   ALTER QMGR STATQ(ON) STATCHL(MEDIUM) STATMQI(ON) STATINT(3600)
for qm in gen.network.qmgrs.values():
    qm.attrs.update(STATQ="ON", STATCHL="MEDIUM", STATMQI="ON", STATINT="3600")

# %% [markdown]
# ## A day of traffic
#
# Messages go at random times along the applications' usual routes, and some along the
# route behind the stopped channel, which is started again at 14:00. Every hour the
# consumers get what arrived — but nobody reads the first target's queue.

# %%
from pcf.mqmd import MQMD

rng = random.Random(19)
sim = Simulator(gen.network, seed=19, latency=0.5, start=datetime(2026, 11, 23))  # midnight
collector = StatisticsCollector(sim)
forgotten = (gen.targets[0][2], gen.targets[0][1])
destinations = {(dest, queue) for _, queue, dest in gen.targets}
probe_origin, probe_queue, _ = stopped.probe
probe_dest = next(q for q in gen.network.qmgrs if probe_queue.endswith(q[2:]))
destinations.add((probe_dest, probe_queue))
sends = [(rng.uniform(0, 86_400), origin, queue) for origin, queue, _ in
         (rng.choice(gen.targets) for _ in range(2_000))]
sends += [(rng.uniform(0, 86_400), probe_origin, probe_queue) for _ in range(60)]
events = sorted(sends) + [(h * 3600.0, None, None) for h in range(1, 25)]
restarted = False
for when, origin, queue in sorted(events, key=lambda e: e[0]):
    if not restarted and when > 14 * 3600:
        sim.run(until=14 * 3600)
        sim.start_channel(stopped.qmgr, stopped.objects[0])
        restarted = True
    sim.run(until=when)
    if origin is None:                      # the hourly consumers
        for dest, q in sorted(destinations - {forgotten}):
            while sim.get(dest, q, appl_name="consumer") is not None:
                pass
        continue
    sim.put(origin, queue, MQMD(format="MQSTR"), b"order " + str(int(when)).encode(),
            appl_name="orders")
sim.run()
written = collector.finish()
print(f"{len(sends)} messages sent; the queue managers wrote {len(written)} statistics "
      f"messages")
print(f"nobody reads {forgotten[1]} on {forgotten[0]}")

# %% [markdown]
# ## What the administrator collects: one dump of the statistics queue per queue manager
#
# `mqroute stats FILE...` prints them as IBM's `amqsmon` does (or `--json`); here the
# channel statistics of the hub's first hour.

# %%
from pcf import dmpmqmsg
from traceroute.sim.statistics import STATISTICS_QUEUE

Path("health/stats").mkdir(parents=True, exist_ok=True)
for qmgr in gen.network.qmgrs:
    msgs = [dmpmqmsg.DumpedMessage(md, data) for md, data in sim.browse(qmgr,
                                                                        STATISTICS_QUEUE)]
    if msgs:
        Path(f"health/stats/{qmgr}.dmp").write_text(
            dmpmqmsg.write(msgs, qmgr=qmgr, queue=STATISTICS_QUEUE), encoding="latin-1")

from traceroute.display import render_amqsmon
from traceroute.readers import read_messages
from traceroute.stats import decode_stats, join_sequences

hub_messages = [decode_stats(m.md, m.data, source=m.source, line=m.line)
                for m in read_messages("health/stats/QM0000.dmp")]
first_channels = next(j for j in join_sequences(hub_messages)
                      if j.messages[0].kind.value == "ChannelStatistics")
print("\n".join(list(render_amqsmon(first_channels.records()))[:40]))

# %% [markdown]
# ## The tables `mqroute analyze` writes
#
# `mqroute analyze health/stats --out DIR` writes `queue_stats/`, `channel_stats/`,
# `mqi_stats/` and `accounting/` as Parquet on Spark; the rows come from the same function
# (`graph.pipeline.stats.stats_rows`), which we call directly here to keep the notebook
# light.

# %%
import pandas as pd

from graph.pipeline.stats import stats_rows

rows = [r for p in sorted(Path("health/stats").glob("*.dmp")) for m in read_messages(p)
        for r in stats_rows(m.md, m.data, source=str(p), position=m.line or 0)]
tables = {t: pd.DataFrame([r for r in rows if r["table"] == t])
          for t in ("queue_stats", "channel_stats", "mqi_stats")}
for name, df in tables.items():
    print(f"{name}: {len(df)} rows")
queues, channels = tables["queue_stats"], tables["channel_stats"]
print(f"INTERVALS: {queues['interval_start'].nunique()}")

# %% [markdown]
# ## Busiest channels, where messages wait, queues that fill

# %%
sending = channels[channels["channel_type"].isin([1, 2, 9])]
busiest = (sending.groupby(["queue_manager", "object"])["msg_count"].sum()
           .sort_values(ascending=False).head(12))
for (qmgr, channel), n in busiest.head(3).items():
    print(f"BUSIEST: {qmgr} {channel} {n}")

is_xmitq = queues.apply(lambda r: gen.network.qmgrs[r["queue_manager"]].queues.get(
    r["object"]) is not None and gen.network.qmgrs[r["queue_manager"]].queues[
        r["object"]].get("USAGE") == "XMITQ", axis=1)
waits = queues[is_xmitq & (queues["get_count"] > 0)].assign(
    waited=lambda d: d["avg_time_on_q"] * d["get_count"])
xmitq_wait = ((waits.groupby(["queue_manager", "object"])["waited"].sum()
               / waits.groupby(["queue_manager", "object"])["get_count"].sum() / 1e6)
              .sort_values(ascending=False).head(10))
(slow_qmgr, xmitq), seconds = next(iter(xmitq_wait.items()))
print(f"SLOWEST XMITQ: {slow_qmgr} {xmitq} {seconds:.0f} s")

totals = queues.assign(puts=queues["put_count"] + queues["put1_count"]).groupby(
    ["queue_manager", "object"]).agg(puts=("puts", "sum"), gets=("get_count", "sum"))
filling = totals[(totals["puts"] > 0) & (totals["gets"] == 0)].index.tolist()
filling = [q for q in filling if not q[1].startswith("SYSTEM.ADMIN.")]
for qmgr, queue in filling:
    print(f"GROWING: {qmgr} {queue}")

# %%
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 3, figsize=(18, 5.5))
ax = axes[0]
labels = [f"{c}\n({q})" for q, c in busiest.index]
ax.barh(labels[::-1], busiest.values[::-1], color="#4c72b0")
ax.set_title("Busiest channels (messages sent in the day)")
ax.tick_params(axis="y", labelsize=7)
ax = axes[1]
ax.barh([f"{x} on {q}" for q, x in xmitq_wait.index][::-1], xmitq_wait.values[::-1],
        color="#dd8452")
ax.set_xscale("log")
ax.set_xlabel("average wait on the transmission queue (s, log scale)")
ax.set_title("Where messages wait for their channel")
ax.tick_params(axis="y", labelsize=7)
ax = axes[2]
for qmgr, queue in [*filling, (slow_qmgr, xmitq)]:
    series = queues[(queues["queue_manager"] == qmgr) & (queues["object"] == queue)]
    series = series.sort_values("interval_start")
    hours = pd.to_datetime(series["interval_start"])
    ax.step(hours, series["q_max_depth"], where="post", label=f"{queue} on {qmgr}")
ax.set_title("Queues that fill (highest depth per interval)")
ax.legend(fontsize=8)
ax.tick_params(axis="x", labelrotation=45, labelsize=7)
fig.tight_layout()
fig.savefig("estate_health.png", dpi=110)
print("picture written to estate_health.png")

# %% [markdown]
# ## The audit, with statistics as the observations
#
# `mqroute audit --mqsc *.mqsc --observed DIR` holds the configuration against what the
# statistics saw: channels that carried nothing, traffic the configuration does not
# explain, queues that only grow, transmission queues where messages wait long.

# %%
from collections import Counter

from graph.audit import ObservedQueue, audit_with_statistics, sends_from_channel_statistics

observed = [ObservedQueue(r.queue_manager, r.object, r.interval_start, r.interval_end,
                          r.put_count + r.put1_count, r.get_count, r.q_min_depth,
                          r.q_max_depth, r.avg_time_on_q)
            for r in queues.itertuples()]
found = audit_with_statistics(gen.network,
                              sends_from_channel_statistics(channels.to_dict("records")),
                              observed)
for kind, n in sorted(Counter(f.kind for f in found).items()):
    print(f"FINDING {kind}: {n}")
for f in found:
    if f.kind in ("growing_queue", "slow_transmission_queue"):
        print(f"  {f.queue_manager}: {f.detail}")
