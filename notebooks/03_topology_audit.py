# %% [markdown]
# # Auditing a network's topology
#
# What the configuration says against what the messages did. We read the `dmpmqcfg`-style
# MQSC of every queue manager of a 200-queue-manager estate (clusters joined by a gateway),
# run a day's traffic through it in the simulator, reconstruct the routes with the Spark
# pipeline, and hold the configured graph against the observed one. Then we run the graph
# analytics on GraphFrames (its jar from `$MQROUTE_GRAPHFRAMES_JAR`, or the project's
# `../shared/jars`), and say which engine ran each.

# %%
from pathlib import Path

from traceroute.sim import MQObject
from traceroute.sim.netgen import generate, to_mqsc_files

gen = generate("mixed", 200, seed=21, faults={"alias_loop": 1, "remote_def_no_channel": 1,
                                             "stopped_channel": 1, "single_repository": 1})
# an administrator's spare channel pair that nothing uses
qa, qb = gen.network.qmgrs["QM0007"], gen.network.qmgrs["QM0150"]
qa.queues["QM0150.SPARE"] = MQObject("QLOCAL", "QM0150.SPARE", {"USAGE": "XMITQ"})
qa.channels["QM0007.QM0150.SPARE"] = MQObject(
    "CHANNEL", "QM0007.QM0150.SPARE", {"CHLTYPE": "SDR", "XMITQ": "QM0150.SPARE",
                                       "CONNAME": "qm0150(1414)"})
qb.channels["QM0007.QM0150.SPARE"] = MQObject("CHANNEL", "QM0007.QM0150.SPARE",
                                              {"CHLTYPE": "RCVR"})
files = to_mqsc_files(gen, Path("estate/mqsc"))
print(f"{len(files)} MQSC files, e.g. {files[7].name}:")
print(files[7].read_text()[:900])

# %% [markdown]
# ## The configuration, read back as an administrator's files

# %%
from traceroute import read_mqsc

network = read_mqsc(files)
print(f"{len(network.qmgrs)} queue managers; clusters: "
      f"{ {c: len(m) for c, m in sorted(network.clusters().items())} }")

# %% [markdown]
# ## A day's traffic, and its routes with Spark
#
# Every queue manager sends a message to an application queue in another cluster, asking
# for activity reports; the reports come back to each sender's `SYSTEM.ADMIN.ACTIVITY.QUEUE`,
# which we dump and analyse.

# %%
from pcf import dmpmqmsg, mqc
from pcf.mqmd import MQMD
from traceroute.sim import ACTIVITY_QUEUE, Simulator

sim = Simulator(network, seed=21)
clusters = sorted(gen.clusters)
for n, cluster in enumerate(clusters):
    other = gen.clusters[clusters[(n + 1) % len(clusters)]]
    dests = [q for q in other if q != "QM0000"]
    for k, qmgr in enumerate(q for q in gen.clusters[cluster] if q != "QM0000"):
        dest = dests[k % len(dests)]
        md = MQMD(report=mqc.MQRO_ACTIVITY | mqc.MQRO_DISCARD_MSG, format="MQSTR",
                  reply_to_q=ACTIVITY_QUEUE, expiry=600)
        sim.put(qmgr, f"APP.Q.{dest[2:]}", md, b"payment", target_qmgr=dest)
sim.run()
Path("estate/reports").mkdir(parents=True, exist_ok=True)
for q in network.qmgrs:
    msgs = [dmpmqmsg.DumpedMessage(m, d) for m, d in sim.browse(q, ACTIVITY_QUEUE)]
    if msgs:
        Path(f"estate/reports/{q}.dmp").write_text(
            dmpmqmsg.write(msgs, qmgr=q, queue=ACTIVITY_QUEUE), encoding="latin-1")

import tempfile

import graph
from graph import pipeline
from graph.engines import graphframes_config, graphframes_jars, shared_graphframes_jars
from graph.pipeline import LOCAL_TEST_CONFIG, spark_session

# GraphFrames' jar: $MQROUTE_GRAPHFRAMES_JAR, else the one built in the project's shared area
project = Path(graph.__file__).resolve().parents[1]
jars = graphframes_jars() or shared_graphframes_jars(project)
spark = spark_session("local[2]", config=graphframes_config(jars or None, config=LOCAL_TEST_CONFIG),
                      driver_memory="2g")
spark.sparkContext.setLogLevel("ERROR")
spark.sparkContext.setCheckpointDir(tempfile.mkdtemp(prefix="nb03-"))
summary = pipeline.run(spark, ["estate/reports"], "estate/out", progress=print)
print(summary.table())

# %% [markdown]
# ## Configured against observed: the audit

# %%
from graph import audit_dataframe

hops = spark.read.parquet("estate/out/hops")
findings = audit_dataframe(spark, network, hops)
findings.show(truncate=70)
for row in findings.groupBy("kind").count().orderBy("kind").collect():
    print(f"FINDING {row['kind']}: {row['count']}")

# %% [markdown]
# ## The two graphs in one picture
#
# The observed traffic (channel lines as thick as their messages), the configured sender
# channels no message used (red, dashed), and the queue managers the audit flags (red
# border, with what it found). Quieter queue managers are folded into "other" nodes.

# %%
from IPython.display import Image

from graph.audit import audit, configured_channels, observed_sends
from graph.draw.estate import draw_estate
from graph.report.html import cluster_map

found = audit(network, observed_sends("estate/out"))
idle = {(f.queue_manager, o) for f in found if f.kind == "unused_channel" for o in f.objects}
sends = [(s.src, s.dst, s.channel, s.messages) for s in observed_sends("estate/out")]
options = {"title": "Configured against observed: 200 queue managers",
           "unused": [c for c in configured_channels(network) if (c[0], c[2]) in idle],
           "flagged": {f.queue_manager: f.kind for f in found}}
clusters = cluster_map(network)      # queue manager -> its cluster(s)
draw_estate(sends, [], "topology_audit.png", clusters, **options)
draw_estate(sends, [], "topology_audit.svg", clusters, **options)
Image("topology_audit.png")

# %% [markdown]
# ## Graph analytics on GraphFrames, and which engine ran them
#
# Every analytic says which engine computed it (a column of its result). With GraphFrames'
# jar loaded it is the engine: `aggregateMessages` for degrees and per-queue-manager
# latency, `pageRank`, `connectedComponents`, motif finding for two-cycles, and Pregel for
# each queue manager's depth (channel hops from where traffic starts).

# %%
from graph import analytics, available_engines, choose_engine, observed_graph, queue_manager_graph

engine = choose_engine(spark)
print(f"ENGINES AVAILABLE: {', '.join(available_engines(spark))}; ENGINE: {engine}")
routes = spark.read.parquet("estate/out/routes")
vertices, edges = queue_manager_graph(*observed_graph(hops, routes))
vertices, edges = vertices.localCheckpoint(eager=True), edges.localCheckpoint(eager=True)
analytics.degrees(spark, vertices, edges).orderBy("degree", ascending=False).show(5)
analytics.vertex_latency(spark, vertices, edges).orderBy(
    "in_latency_max", ascending=False).show(5)
analytics.pagerank(spark, vertices, edges).orderBy("pagerank", ascending=False).show(5)
islands = analytics.connected_components(spark, vertices, edges)
print(f"ISLANDS: {islands.select('component').distinct().count()} "
      f"(engine {islands.first()['engine']})")
pairs = analytics.two_cycles(spark, vertices, edges)
print(f"CHANNEL PAIRS USED BOTH WAYS: {pairs.count()} (engine {engine})")
depth = analytics.depth(spark, vertices, edges, sources=["QM0000"])
by_depth = depth.groupBy("depth").count().orderBy("depth").collect()
print("DEPTH FROM THE GATEWAY:", {r["depth"]: r["count"] for r in by_depth
                                  if r["depth"] is not None},
      f"unreached: {sum(r['count'] for r in by_depth if r['depth'] is None)}")
analytics.where_routes_die(spark, routes).show(5, truncate=False)

# %% [markdown]
# ## The audit's patterns as motifs
#
# Three of the audit's checks are shapes in the configured graph (queue managers, channel
# ends, remote definitions, transmission queues): alias loops are rings of `forwards`
# edges, a receiver without a sender is a `defines` edge with no `partner` edge into it, a
# remote definition that leads nowhere `resolves` to a transmission queue no channel
# serves. GraphFrames finds them with `find`; they agree with the audit above.

# %%
from graph.network import configured_graph

cv, ce = configured_graph(spark, network)
patterns = analytics.configuration_patterns(spark, cv, ce)
patterns.select("kind", "queue_manager", "objects", "engine").show(truncate=False)
# (a loop is named by its definition: the walk names it where it started, a motif at its
# least queue manager)
walked = {(f.kind, f.objects[0]) for f in found if f.kind in
          ("alias_loop", "receiver_without_sender", "remote_definition_without_channel")}
motifs = {(r["kind"], r["objects"][0]) for r in patterns.collect()}
print(f"MOTIFS AGREE WITH THE AUDIT: {motifs == walked} (engine {patterns.first()['engine']})")

# %%
spark.stop()
