# %% [markdown]
# # Failures explained: a day where puts fail and channels will not start
#
# Four queue managers. On QM1 the applications work, every event switch is on and activity
# trace runs; QM2, QM3 and QM4 are its partners. During the day puts fail for every reason a
# queue manager event explains, a channel is stopped by its administrator, another finds
# nobody listening until QM3 starts its listener (and defines the channel itself, CHAD), a
# third fails its TLS handshake all day, QM2 ends and comes back, clients are refused, and
# the administrators change things with runmqsc.
#
# Everything an administrator would have is there afterwards: the event queues
# (`SYSTEM.ADMIN.*.EVENT`), the activity trace, the dead-letter queues. We read them as
# `mqroute follow --events` does: each failed put next to the event that says why, each
# message still waiting next to its channel's last word.

# %%
from collections import Counter

from traceroute.display.amqsevt import dumps, text
from traceroute.events import decode_event
from traceroute.events.catalog import kind_of
from traceroute.events.explain import explain_journeys
from traceroute.journeys import JourneyVerdict, reconstruct
from traceroute.journeys.parse import parse_activity_trace
from traceroute.sim.failureday import failure_day

day = failure_day()
sim = day.sim
for when, what, reason in day.log:
    if "afternoon" not in what:
        print(f"{when}  {what:55}  {'MQRC ' + str(reason) if reason else 'ok'}")

# %% [markdown]
# ## What the event queues hold
#
# Every event message the day left, counted by queue manager and kind. Each is a real PCF
# event message with exactly the event data IBM's reference lists for it.

# %%
QUEUES = ("SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT", "SYSTEM.ADMIN.PERFM.EVENT",
          "SYSTEM.ADMIN.CONFIG.EVENT", "SYSTEM.ADMIN.COMMAND.EVENT",
          "SYSTEM.ADMIN.LOGGER.EVENT")
events = [decode_event(data, md, queue=queue) for qmgr in sim.network.qmgrs
          for queue in QUEUES for md, data in sim.browse(qmgr, queue)]
counts = Counter((e.qmgr, kind_of(e).name if kind_of(e) else str(e.reason)) for e in events)
for (qmgr, name), n in sorted(counts.items()):
    print(f"{qmgr}  {name:40} {n:3}")
print("EVENTS:", len(events), "KINDS:", len({name for _, name in counts}))

# %% [markdown]
# Two of them as IBM's `amqsevt` prints them: the default text form, and JSON.

# %%
unknown_remote = next(e for e in events if e.reason == 2087)
print(text(unknown_remote))
print()
ssl = next(e for e in events if e.reason == 2371)
print(dumps(ssl))

# %% [markdown]
# ## Every failed put, explained
#
# The activity trace gives the journeys: a put that failed is a journey of its own, its
# reason in the trace record. The event of that reason, on that queue manager, for that
# queue, at that time, says why (the rule `show`, `follow` and `analyze` share).

# %%
journeys = reconstruct(parse_activity_trace(md, data)
                       for md, data in day.tracer.messages()).journeys
failed = [j for j in journeys if j.verdict == JourneyVerdict.PUT_FAILED]
for journey, why in explain_journeys(failed, events):
    call = journey.steps[-1].call
    print(f"{call.qmgr} {journey.last_location.queue:18} MQRC {call.reason}:",
          why[0].text if why else "(no event)")

# %% [markdown]
# ## Messages still waiting, explained
#
# Three messages for QM4 are still on QM1's transmission queue at the end of the day. Their
# channel's last word is a Channel Stopped event in retry, with MQ's message AMQ9641 (the
# other end's CipherSpec differs); QM4's own Channel SSL Error says the same from there.

# %%
waiting = [j for j in journeys if j.verdict in (JourneyVerdict.ON_XMITQ,
                                                 JourneyVerdict.IN_TRANSIT)
           and sim.depth(j.last_location.queue_manager, j.last_location.queue)]
for journey, why in explain_journeys(waiting, events):
    loc = journey.last_location
    print(f"{journey.msg_id.hex()[:16]}... on {loc.queue_manager} {loc.queue}:",
          why[0].text if why else "(no event)")
print("STILL ON QM1's QM4:", sim.depth("QM1", "QM4"),
      "| QM1.TO.QM4 is", sim.channel_status("QM1", "QM1.TO.QM4"))
