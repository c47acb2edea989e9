# %% [markdown]
# # Following real messages with application activity trace
#
# Orders flow between five spoke queue managers through a hub. Nobody asked for reports:
# these are ordinary application messages. What sees them is **application activity
# trace** (`ALTER QMGR ACTVTRC(ON)`): every MQI call of every connection, channel agents
# included, written to `SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE` on each queue manager. Three
# things are wrong in the estate, as they would be on a real Monday:
#
# * the hub's channel to S4 is stopped,
# * the consumer on S3 is slow (one message every 15 minutes),
# * on S1, the remote definition for S5's orders names `ORDRES`, a queue S5 does not have.
#
# We dump the five trace queues, follow every message by its MsgId (`mqroute follow`, the
# same code as `mqroute analyze` on Spark), list every message that did not arrive, where it
# stopped and why, and draw where they are.

# %%
from collections import Counter
from pathlib import Path

from pcf import dmpmqmsg
from pcf.names import name_of
from traceroute.sim.activity_trace import ActivityTracer
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator
from traceroute.sim.workload import Consumer, Producer, Workload

SPOKES = [f"S{i}" for i in range(1, 6)]
mqsc = ["* Queue manager name: HUB",
        "ALTER QMGR ACTVTRC(ON) DEADQ('DLQ')", "DEFINE QLOCAL('DLQ')"]
for s in SPOKES:
    mqsc += [f"DEFINE QLOCAL('{s}') USAGE(XMITQ)",
             f"DEFINE CHANNEL('HUB.TO.{s}') CHLTYPE(SDR) CONNAME('{s.lower()}(1414)') "
             f"XMITQ('{s}')",
             f"DEFINE CHANNEL('{s}.TO.HUB') CHLTYPE(RCVR)"]
for s in SPOKES:
    mqsc += [f"* Queue manager name: {s}", "ALTER QMGR ACTVTRC(ON) DEADQ('DLQ')",
             "DEFINE QLOCAL('DLQ')", "DEFINE QLOCAL('ORDERS')", "DEFINE QLOCAL('HUB') USAGE(XMITQ)",
             f"DEFINE CHANNEL('{s}.TO.HUB') CHLTYPE(SDR) CONNAME('hub(1414)') XMITQ('HUB')",
             f"DEFINE CHANNEL('HUB.TO.{s}') CHLTYPE(RCVR)"]
    for t in SPOKES:
        if t != s:
            rname = "ORDRES" if (s, t) == ("S1", "S5") else "ORDERS"  # the typo
            mqsc.append(f"DEFINE QREMOTE('ORDERS.{t}') RNAME('{rname}') RQMNAME('{t}') "
                        "XMITQ('HUB')")
network = parse_mqsc("\n".join(mqsc), source="estate.mqsc")
print(f"{len(network.qmgrs)} queue managers, activity trace on everywhere")

# %% [markdown]
# ## An hour of traffic
#
# Every spoke sends 6 orders to every other spoke (one every 10 minutes); every spoke has a
# consumer on ORDERS, the one on S3 slow. The hub's channel to S4 is stopped from the start.

# %%
sim = Simulator(network, seed=4, latency=0.5)
tracer = ActivityTracer(sim)
sim.stop_channel("HUB", "HUB.TO.S4")
apps = []
for n, s in enumerate(SPOKES):
    for m, t in enumerate(t for t in SPOKES if t != s):
        apps.append(Producer(s, f"ORDERS.{t}", count=6, interval=600.0, start=n * 7.0 + m,
                             appl_name="orders"))
    apps.append(Consumer(s, "ORDERS", interval=900.0 if s == "S3" else 5.0,
                         batch=1 if s == "S3" else 100, appl_name="fulfil"))
workload = Workload(sim).add(*apps)
workload.run(until=3600.0)
sent = [m for appl, m in workload.sent if appl == "orders"]
print(f"{len(sent)} messages sent; {len(tracer.written)} activity-trace messages written")

# %% [markdown]
# ## What an administrator collects: one dump per trace queue (`dmpmqmsg`)

# %%
folder = Path("trace-out")
folder.mkdir(exist_ok=True)
files = []
for qm in sorted(network.qmgrs):
    path = folder / f"{qm}.dmp"
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, data)
                               for md, data in tracer.messages(qm)],
                        qmgr=qm, queue="SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE")
    files.append(str(path))
print("\n".join(f"{f}: {Path(f).stat().st_size:,} bytes" for f in files))

# %% [markdown]
# ## Every journey, as `mqroute follow --json` gives it
#
# `mqroute follow trace-out/*.dmp --json` prints one JSON object per original message; here we
# call the same command in-process and read its output.

# %%
import contextlib
import io
import json

from mqroute.main import main

out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    status = main(["follow", "--json", *files])
journeys = [json.loads(line) for line in out.getvalue().splitlines()]
journeys = [j for j in journeys if bytes.fromhex(j["msg_id"]) in set(sent)]
print(f"exit status {status} (5: some dead-lettered)")
arrived = [j for j in journeys if j["verdict"] == "consumed"]
print(f"SENT: {len(sent)}")
print(f"ARRIVED: {len(arrived)}")
stopped = Counter(j["verdict"] for j in journeys if j["verdict"] != "consumed")
for verdict, n in sorted(stopped.items()):
    print(f"STOPPED {verdict}: {n}")

# %% [markdown]
# ## Where each one stopped, and why

# %%
where = Counter()
for j in journeys:
    if j["verdict"] == "consumed":
        continue
    loc = j["last_location"]
    why = ""
    failed = [p for p in j["path"] if p["comp_code"] == 2]
    if failed:
        why = name_of(failed[-1]["reason"], "MQRC") or str(failed[-1]["reason"])
    elif j["verdict"] == "on_xmitq":
        why = "channel not moving it"
    elif j["verdict"] == "on_queue":
        why = "no consumer has got it yet"
    where[(j["verdict"], loc["queue_manager"], loc["queue"], why)] += 1
print(f"{'verdict':<14}{'queue manager':<15}{'queue':<10}{'messages':>9}  why")
for (verdict, qm, queue, why), n in sorted(where.items()):
    print(f"{verdict:<14}{qm:<15}{queue:<10}{n:>9}  {why}")
dead = next(j for j in journeys if j["verdict"] == "dead_lettered")
print("WHY dead_lettered:", name_of(next(p for p in dead["path"] if p["comp_code"] == 2)
                                    ["reason"], "MQRC"))
stuck = next(j for j in journeys if j["verdict"] == "on_xmitq")
print(f"STUCK AT {stuck['last_location']['queue_manager']} on transmission queue "
      f"{stuck['last_location']['queue']}")

# %% [markdown]
# One journey in full, as `mqroute follow --msg-id` prints it:

# %%
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    main(["follow", "--msg-id", dead["msg_id"].lower(), *files])
print(out.getvalue())

# %% [markdown]
# ## The same at scale: the journeys/ table
#
# `mqroute analyze trace-out/ --out out/` writes `calls/` and `journeys/` Parquet tables on
# Spark; its single-process twin gives the same rows (tested), so we use it here.

# %%
from graph.pipeline.journeylocal import run_local

calls, table = run_local(files)
table = [r for r in table if bytes.fromhex(r["msg_id"]) in set(sent)]
print(f"calls/ rows: {len(calls)}; journeys/ rows: {len(table)}")
same = Counter(r["verdict"] for r in table) == Counter(j["verdict"] for j in journeys)
print(f"TABLE AGREES WITH FOLLOW: {same}")

# %% [markdown]
# ## The picture: where the messages that did not arrive are

# %%
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import networkx as nx

g = nx.DiGraph()
for s in SPOKES:
    g.add_edge(s, "HUB")
    g.add_edge("HUB", s)
pos = nx.circular_layout(SPOKES)
pos["HUB"] = (0.0, 0.0)
held = Counter()
for (_verdict, qm, _queue, _why), n in where.items():
    held[qm] += n
fig, ax = plt.subplots(figsize=(7, 6))
broken = [("HUB", "S4")]
nx.draw_networkx_edges(g, pos, ax=ax, edgelist=[e for e in g.edges if e not in broken],
                       edge_color="#999999", arrows=True, connectionstyle="arc3,rad=0.08")
nx.draw_networkx_edges(g, pos, ax=ax, edgelist=broken, edge_color="red", width=2.5,
                       style="dashed", arrows=True, connectionstyle="arc3,rad=0.08")
sizes = [600 + 60 * held[n] for n in g.nodes]
colors = ["#d62728" if held[n] else "#1f77b4" for n in g.nodes]
nx.draw_networkx_nodes(g, pos, ax=ax, node_size=sizes, node_color=colors)
nx.draw_networkx_labels(g, pos, ax=ax, labels={n: f"{n}\n{held[n] or ''}" for n in g.nodes},
                        font_color="white", font_size=9)
ax.set_title("Messages that did not arrive, by the queue manager holding them\n"
             "(red dashed: stopped channel HUB.TO.S4)")
ax.axis("off")
fig.savefig("journeys_stopped.png", dpi=100, bbox_inches="tight")
print("picture: journeys_stopped.png")
