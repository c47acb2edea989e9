# %% [markdown]
# # Tracing a message's route
#
# We define two queue managers in MQSC — the network of IBM's own `dspmqrte` examples —
# trace a message through the simulated network, display the route as `dspmqrte` would and
# as a picture, then stop a channel and watch the trace stop on the transmission queue.
#
# Nothing here needs a queue manager: the simulator follows IBM's documented behaviour,
# and everything it sends back is a real PCF message decoded by the same code that reads
# reports from a real queue manager.

# %%
from importlib import resources

from graph import route_graph, save
from traceroute import (
    Simulator,
    TraceOptions,
    build_routes,
    build_trace_message,
    parse_message,
    parse_mqsc,
    render_route,
)

mqsc = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
print(mqsc)

# %% [markdown]
# ## One trace
#
# `TraceOptions` takes dspmqrte's options: target queue, reply queue, and here `-d yes` so
# the trace-route message is really delivered to `TARGET.Q`, and `-ac` so the activities
# also accumulate in the message itself.

# %%
def trace(network, **options):
    """Put one trace-route message on QM1, run the network, collect the reports."""
    sim = Simulator(network, seed=1)
    opts = TraceOptions.from_dspmqrte(rq="ACTIV.REPLY.Q", **options)
    md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    sim.put("QM1", opts.target_q, md, data, appl_name="dspmqrte")
    sim.run()
    records = [parse_message(m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")]
    (route,) = build_routes(records)
    return sim, route


network = parse_mqsc(mqsc, source="qm1_qm2.mqsc")
sim, route = trace(network, q="TARG.AT.QM2", d="yes", ac=True)
print("\n".join(render_route(route, "summary")))
print(f"VERDICT: {route.verdict.value}; last seen on {route.location.queue_manager}, "
      f"queue {route.location.queue}; {len(route.activities)} activities")
print("messages on TARGET.Q at QM2:", sim.depth("QM2", "TARGET.Q"))

# %%
print("\n".join(render_route(route, "outline", ["identifiers"])))

# %%
from IPython.display import Image

picture = route_graph(route)
save(picture, "route_delivered.png", title="TARG.AT.QM2: delivered")
save(picture, "route_delivered.svg", title="TARG.AT.QM2: delivered")  # tooltips: full names
Image("route_delivered.png")

# %% [markdown]
# ## A broken channel
#
# An administrator stops the sender channel `QM1.TO.QM2`. The same trace now ends where
# the message waits: on the transmission queue `QM2` on QM1 — dspmqrte's example 4.

# %%
broken = parse_mqsc(mqsc + "\n* Queue manager name: QM1\nSTOP CHANNEL(QM1.TO.QM2)\n",
                    source="qm1_qm2.mqsc + STOP CHANNEL")
sim, stuck = trace(broken, q="TARG.AT.QM2", d="yes")
print("\n".join(render_route(stuck, "outline")))
print(f"VERDICT: {stuck.verdict.value}; waiting on queue {stuck.location.queue} at "
      f"{stuck.location.queue_manager}, bound for {stuck.location.remote_queue_manager}")
print("depth of transmission queue QM2 on QM1:", sim.depth("QM1", "QM2"))

# %%
save(route_graph(stuck), "route_stuck.png", title="channel QM1.TO.QM2 stopped")
save(route_graph(stuck), "route_stuck.svg", title="channel QM1.TO.QM2 stopped")
Image("route_stuck.png")

# %% [markdown]
# Starting the channel again lets the message — and its reports — move on:

# %%
sim.start_channel("QM1", "QM1.TO.QM2")
sim.run()
records = [parse_message(m, d) for m, d in sim.browse("QM1", "ACTIV.REPLY.Q")]
(after,) = build_routes(records)
print(f"VERDICT after START CHANNEL: {after.verdict.value}")

# %% [markdown]
# ## A publication: one route, a branch per subscriber
#
# `dspmqrte -ts` publishes the trace-route message on a topic instead. The estate of
# `examples/pubsub.mqsc` is a cluster of three queue managers sharing the topic
# `Sport/Scores` (direct routing) and QMD, a child of QMC in a hierarchy; there are
# subscribers on all four. With QMC's channel to QMD stopped, the route has a branch per
# subscription the publication went towards — nested where another queue manager's engine
# published it again — and each branch its own verdict. Where each subscription sends its
# copies is what `DISPLAY SUB` says (the command asks the queue managers; here the
# simulator's own answer).

# %%
from traceroute import Location
from traceroute.display import branch_results

pubsub = resources.files("traceroute").joinpath("examples/pubsub.mqsc").read_text()
estate = parse_mqsc(pubsub + "\n* Queue manager name: QMA\nDEFINE QLOCAL(ACTIV.REPLY.Q)\n"
                    "* Queue manager name: QMC\nSTOP CHANNEL(QMC.QMD)\n", source="pubsub.mqsc")
sim = Simulator(estate, seed=1)
opts = TraceOptions.from_dspmqrte(ts="Sport/Scores/Soccer", rq="ACTIV.REPLY.Q", d="yes",
                                  ro="activity")
md, data = build_trace_message(opts, msg_id=sim.new_msg_id("QMA"))
sim.publish("QMA", "Sport/Scores/Soccer", md, data, appl_name="dspmqrte")
sim.run(until=sim.now + 30)


def destination(qmgr, sub_id):
    sub = sim.pubsub.find(sim.network, qmgr, sub_id)
    return Location(sub.destination_qmgr, sub.dest) if sub else None


records = [parse_message(m, d) for m, d in sim.browse("QMA", "ACTIV.REPLY.Q")]
(fanout,) = build_routes(records, destination)
print("\n".join(branch_results(fanout)))
print(f"FAN-OUT: {len(fanout.leaves)} branches; worst: {fanout.verdict.value}")

# %%
save(route_graph(fanout), "route_fanout.png", title="Sport/Scores/Soccer: QMD out of reach")
save(route_graph(fanout), "route_fanout.svg", title="Sport/Scores/Soccer: QMD out of reach")
Image("route_fanout.png")
