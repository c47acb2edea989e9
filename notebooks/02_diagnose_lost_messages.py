# %% [markdown]
# # Diagnosing lost messages across a network
#
# A day of application traffic on a simulated network of 300 queue managers (hub and
# spoke). The applications ask for activity reports (`MQRO_ACTIVITY`), which every queue
# manager sends back to the applications' reply queues. Some messages never arrive: a
# channel was stopped for part of the day, a remote definition names a queue that does not
# exist, another has no channel, and two queue-manager aliases pass messages round in a
# circle. We load the reports with the Spark pipeline, find every lost message's last known
# location, group them by cause, and put the offenders on a picture of the network.

# %%
import random
from pathlib import Path

from pcf import dmpmqmsg, mqc
from pcf.mqmd import MQMD
from traceroute import Simulator
from traceroute.sim.netgen import REPLY_Q, generate

gen = generate("hub", 300, seed=7, faults={"stopped_channel": 1, "missing_target": 1,
                                          "alias_loop": 1, "remote_def_no_channel": 1})
print(gen.stats())
for fault in gen.faults:
    print(f"planted {fault.kind}: {fault.detail}")

# %% [markdown]
# ## A day of traffic
#
# 1,500 messages at random times of the day along the applications' usual routes, plus a
# few along the faulty ones. Messages expire after 10 minutes. The faulty channel runs in
# the morning, is stopped at 06:00 and started again at 18:00: what waited behind it for
# more than 10 minutes has expired. Every queue manager writes channel events
# (`CHLEV(ENABLED)`), as many estates do, to its SYSTEM.ADMIN.CHANNEL.EVENT queue.

# %%
from traceroute.sim.events import SimEvents

rng = random.Random(7)
for qm in gen.network.qmgrs.values():
    qm.attrs["CHLEV"] = "ENABLED"  # ALTER QMGR CHLEV(ENABLED)
sim = Simulator(gen.network, seed=7, latency=1.0)
sim_events = SimEvents(sim)
stopped = next(f for f in gen.faults if f.kind == "stopped_channel")
sim.start_channel(stopped.qmgr, stopped.objects[0])
probes = [f.probe for f in gen.faults if f.probe]
sends = [(rng.uniform(0, 86_400), *rng.choice(gen.targets)[:2]) for _ in range(1_500)]
sends += [(rng.uniform(0, 86_400), origin, queue) for origin, queue, _ in probes * 6]
operator = [(6 * 3600.0, sim.stop_channel), (18 * 3600.0, sim.start_channel)]
for when, origin, queue in sorted(sends):
    while operator and when > operator[0][0]:
        at, action = operator.pop(0)
        sim.run(until=at)
        action(stopped.qmgr, stopped.objects[0])
    sim.run(until=when)
    md = MQMD(report=mqc.MQRO_ACTIVITY | mqc.MQRO_DEAD_LETTER_Q, format="MQSTR",
              expiry=6_000, reply_to_q=REPLY_Q)
    sim.put(origin, queue, md, b"order " + str(int(when)).encode(), appl_name="orders")
sim.run()
reports = [(origin, md, data) for origin in gen.origins
           for md, data in sim.browse(origin, REPLY_Q)]
print(f"{len(sends)} messages sent, {len(reports)} activity reports collected")
print(f"{len(sim_events.events)} channel events written")

# %% [markdown]
# ## The reports, as an administrator would have them: one dump per reply queue

# %%
folder = Path("day")
folder.mkdir(exist_ok=True)
for origin in gen.origins:
    mine = [dmpmqmsg.DumpedMessage(md, data) for o, md, data in reports if o == origin]
    (folder / f"{origin}.TRACE.REPLY.Q.dmp").write_text(
        dmpmqmsg.write(mine, qmgr=origin, queue=REPLY_Q), encoding="latin-1")
CHANNEL_EVENTS = "SYSTEM.ADMIN.CHANNEL.EVENT"
for qmgr in gen.network.qmgrs:
    mine = [dmpmqmsg.DumpedMessage(md, data) for md, data in sim.browse(qmgr, CHANNEL_EVENTS)]
    if mine:
        (folder / f"{qmgr}.{CHANNEL_EVENTS}.dmp").write_text(
            dmpmqmsg.write(mine, qmgr=qmgr, queue=CHANNEL_EVENTS), encoding="latin-1")
print(sorted(p.name for p in folder.iterdir()))

# %% [markdown]
# ## Every route, with Spark

# %%
from graph import pipeline
from graph.pipeline import LOCAL_TEST_CONFIG, spark_session

spark = spark_session("local[2]", config=LOCAL_TEST_CONFIG, driver_memory="2g")
spark.sparkContext.setLogLevel("ERROR")
summary = pipeline.run(spark, [str(folder)], "day-out", progress=print)
print(summary.table())

# %% [markdown]
# ## The lost messages, by cause and last known location
#
# A route is *lost* unless it was delivered. A route with more activities than any real
# path has went round in circles; we call that cause `loop` (such messages end by expiring
# or on a dead-letter queue).

# %%
from pyspark.sql import functions as F

routes = spark.read.parquet("day-out/routes")
cause = (F.when(F.col("activities") > 12, F.lit("loop"))
         .otherwise(F.col("verdict")))
lost = routes.filter(F.col("verdict") != "delivered").withColumn("cause", cause)
by_cause = (lost.groupBy("cause", "last_queue_manager", "last_queue", "next_queue_manager")
            .count().orderBy(F.desc("count")))
by_cause.show(truncate=False)
for row in lost.groupBy("cause").count().orderBy("cause").collect():
    print(f"LOST {row['cause']}: {row['count']}")
print(f"DELIVERED: {routes.filter(F.col('verdict') == 'delivered').count()}")

# %% [markdown]
# ## What the events say
#
# `analyze` read the channel-event dumps beside the reports and joined every route to the
# events that explain where it stopped (`route_events/`: same queue manager, the route's
# last queue or channel named by the event, the event before the route's last activity).

# %%
explained = spark.read.parquet("day-out/route_events")
why = (explained.groupBy("verdict", "reason_name", "last_queue_manager", "channel")
       .agg(F.countDistinct("correl_id").alias("messages")).orderBy("verdict"))
why.show(truncate=False)
for row in why.collect():
    print(f"EXPLAINED {row['verdict']}: {row['messages']} by {row['reason_name']} "
          f"({row['last_queue_manager']} {row['channel']})")

# %% [markdown]
# ## The offenders on a picture of the network
#
# Queue managers as observed in the routes (the hops' sends), grouped by traffic, channel
# lines as thick as the messages they carried; where lost messages were last seen, coloured
# by cause, with how many were lost there. Past 24 queue managers the quietest are
# folded into one "other queue managers" node per group.

# %%
from IPython.display import Image

from graph.draw.estate import draw_estate
from graph.report.tables import read_estate

estate = read_estate("day-out")
draw_estate(estate.sends, estate.losses, "lost_messages.png",
            title="A day on 300 queue managers: where lost messages were last seen")
draw_estate(estate.sends, estate.losses, "lost_messages.svg",
            title="A day on 300 queue managers: where lost messages were last seen")
for g in estate.lost_groups:
    print(f"{g['cause']:<18}{g['queue_manager']:<8}{g['queue']:<26}{g['messages']:>4}")
Image("lost_messages.png")

# %% [markdown]
# ## The whole day on one page
#
# `mqroute report day-out -o lost_messages_report.html` (here through its library function)
# writes one self-contained HTML page: verdicts, lost messages by cause and place, the
# estate, a timeline, busiest and stuck channels, the audit against the MQSC, and a page per
# example route with its picture and dspmqrte text.

# %%
from graph.report import write_report

report = write_report("day-out", "lost_messages_report.html", network=gen.network,
                      title="A day on 300 queue managers")
print(f"REPORT {report.name}: {report.stat().st_size:,} bytes")

# %%
spark.stop()
