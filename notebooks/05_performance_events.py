# %% [markdown]
# # Performance events: a day with a slow consumer
#
# One queue manager, one busy queue. Producers put orders all day; the consumer keeps up in
# the morning, slows down before noon and stops from 13:00 to 15:00. We replay the day,
# minute by minute, through mqroute's performance-event engine — the queue manager's own
# rules for queue depth (High, Low, Full) and queue service interval (High, OK) events —
# and look at what an administrator would have found on `SYSTEM.ADMIN.PERFM.EVENT`.
#
# The engine follows IBM's documented algorithm exactly (the seeds' example tables are
# reproduced number for number by the tests); every event is a real PCF event message.

# %%
import random

from traceroute.display.amqsevt import dumps
from traceroute.events import decode_event
from traceroute.events.build import event_message, perf_event
from traceroute.events.engine import PerfEvent, QueueAttrs, QueueManagerEngine
from traceroute.sim import parse_mqsc

mqsc = """
ALTER QMGR PERFMEV(ENABLED)
DEFINE QLOCAL(APP.ORDERS) MAXDEPTH(5000) +
       QDEPTHHI(80) QDPHIEV(ENABLED) QDEPTHLO(20) QDPLOEV(DISABLED) QDPMAXEV(ENABLED) +
       QSVCINT(120000) QSVCIEV(HIGH)
"""
network = parse_mqsc(mqsc, qmgr="QM1")
qm = network.qmgrs["QM1"]
orders = QueueAttrs.from_mqsc("APP.ORDERS", qm.queues["APP.ORDERS"].attrs)
print(orders)

# %% [markdown]
# ## The day
#
# Puts follow office hours (a morning and an afternoon peak); the consumer can take 60
# messages a minute, 15 between 10:30 and 13:00, none from 13:00 to 15:00. The replay runs
# minute by minute: each minute's puts, then the gets the consumer manages (never more than
# are on the queue).

# %%
rng = random.Random(5)
engine = QueueManagerEngine("QM1", [orders], perfmev=True)
MINUTE = 60_000


def producer_rate(minute: int) -> int:
    hour = minute / 60
    if 7 <= hour < 19:
        peak = 45 if 9 <= hour < 11 or 14 <= hour < 16 else 30
        return max(0, int(rng.gauss(peak, 4)))
    return rng.randint(0, 3)


def consumer_rate(minute: int) -> int:
    hour = minute / 60
    if 13 <= hour < 15:
        return 0
    if 10.5 <= hour < 13:
        return 15
    return 60


depth, events, failures = [], [], 0
for minute in range(24 * 60):
    t = minute * MINUTE
    for out in engine.put(t, "APP.ORDERS", producer_rate(minute) or 1):
        if isinstance(out, PerfEvent):
            events.append(out)
        else:
            failures += 1
    wanted = min(consumer_rate(minute), engine.snapshot("APP.ORDERS").depth)
    if wanted:
        # gets spread over the minute
        for k in range(wanted):
            for out in engine.get(t + (k + 1) * MINUTE // (wanted + 1), "APP.ORDERS"):
                if isinstance(out, PerfEvent):
                    events.append(out)
    depth.append(engine.snapshot("APP.ORDERS").depth)

print(f"peak depth {max(depth)} of {orders.max_depth}; {failures} puts failed (queue full)")
print(f"EVENTS: {len(events)}")

# %% [markdown]
# ## The events timeline
#
# Each event carries the statistics since the previous one: how long, the highest depth,
# how many messages went in and out. Depth High at 80 % of MAXDEPTH (4000) (Low starts
# disabled, as in IBM's examples, and is switched on by the High event), Low at 20 %
# (1000), Queue Full at 5000; the service interval (2 minutes) is breached when no get
# follows a put or a get for longer than that.


# %%
def hhmm(ms: int) -> str:
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}"


for e in events:
    print(f"{hhmm(e.time_ms)}  {e.name:<28} since last {e.time_since_reset:>6} s  "
          f"high {e.high_q_depth:>5}  in {e.msg_enq_count:>6}  out {e.msg_deq_count:>6}")
for name in ("Queue Depth High", "Queue Full", "Queue Depth Low",
             "Queue Service Interval High", "Queue Service Interval OK"):
    first = next((e for e in events if e.name == name), None)
    if first:
        print(f"FIRST {name.upper()} at {hhmm(first.time_ms)}")

# %% [markdown]
# ## What lands on SYSTEM.ADMIN.PERFM.EVENT
#
# The first event as the queue manager writes it (MQMD + PCF), read back by the same
# decoder that reads real event queues, and shown as IBM's `amqsevt -o json` shows it.

# %%
md, data = event_message(perf_event(events[0]))
print(f"MQMD Format {md.format!r}, {len(data)} bytes of PCF")
print(dumps(decode_event(data, md)))

# %% [markdown]
# ## Depth over the day, with the events
#
# The line is the queue depth minute by minute; the markers are the events, the shaded
# bands the periods between a service-interval High and the next OK (nobody served the queue
# in time).

# %%
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

hours = [m / 60 for m in range(len(depth))]
fig, ax = plt.subplots(figsize=(11, 4.5))
ax.plot(hours, depth, color="#335", lw=1.2, label="depth")
for level, text in ((orders.max_depth, "MAXDEPTH"), (4000, "QDEPTHHI 80 %"),
                    (1000, "QDEPTHLO 20 %")):
    ax.axhline(level, color="#999", ls=":", lw=0.8)
    ax.text(0.1, level + 60, text, fontsize=8, color="#666")
style = {"Queue Depth High": ("^", "#d62"), "Queue Depth Low": ("v", "#2a6"),
         "Queue Full": ("X", "#c00"), "Queue Service Interval High": ("s", "#a3a"),
         "Queue Service Interval OK": ("o", "#38c")}
for name, (marker, color) in style.items():
    xs = [e.time_ms / 3_600_000 for e in events if e.name == name]
    ys = [depth[min(len(depth) - 1, e.time_ms // MINUTE)] for e in events if e.name == name]
    if xs:
        ax.scatter(xs, ys, marker=marker, color=color, s=60, zorder=3, label=name)
start = None
for e in events:
    if e.name == "Queue Service Interval High":
        start = e.time_ms
    elif e.name == "Queue Service Interval OK" and start is not None:
        ax.axvspan(start / 3_600_000, e.time_ms / 3_600_000, color="#a3a", alpha=0.12)
        start = None
ax.set_xlim(0, 24)
ax.set_xlabel("hour of the day")
ax.set_ylabel("messages on APP.ORDERS")
ax.set_title("QM1 APP.ORDERS: depth and performance events")
ax.legend(loc="upper right", fontsize=8)
fig.tight_layout()
fig.savefig("performance_events.png", dpi=110)
print("picture written to performance_events.png")
