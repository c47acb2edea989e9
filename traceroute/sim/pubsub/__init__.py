"""Publish/subscribe in the simulated network: topics, subscriptions, proxy subscriptions.

The rules live here, over the network's definitions and as pure functions; the simulator
(`traceroute.sim.simulator`) carries publications out with them:

* topic strings, the topic-based (`#`, `+`) and character-based wildcard schemes,
  `matches(pattern, topic)`: `traceroute.records.topics` (pure; journeys match with it too);
* `tree`: the administrative topic objects (DEFINE TOPIC) a topic string goes by and the
  attributes that hold for it (`view`: PUB, SUB, DEFPSIST, PMSGDLV, NPMSGDLV, USEDLQ,
  PUBSCOPE, SUBSCOPE, CLUSTER, CLROUTE ...), hierarchies (PARENT) and topic hosts;
* `subscriptions`: `Subscription` values (DEFINE SUB, MQSUB, proxies);
* `selector`: message selectors (SELECTOR) on a publication's MQMD;
* `routing`: proxy subscriptions between queue managers (clusters with direct and topic
  host routing, hierarchies) and which subscriptions a publication is published to or
  excluded from (`consider`);
* `state`: what the engines hold beyond the definitions (MQSUB subscriptions, publications
  in flight between queue managers).
"""

from traceroute.records.topics import (
    CHAR_SCHEME,
    TOPIC_SCHEME,
    fixed_prefix,
    has_wildcard,
    join,
    matches,
    publishable,
)
from traceroute.sim.pubsub.routing import Considered, Origin, consider, proxies
from traceroute.sim.pubsub.selector import SelectorError, compile_selector, selects
from traceroute.sim.pubsub.state import Inflight, PubSub
from traceroute.sim.pubsub.subscriptions import (
    ADMIN,
    API,
    INTER_QMGR_PUBS,
    PROXY,
    Subscription,
    admin_subscriptions,
    from_definition,
    managed_queue,
    sub_id_for,
)
from traceroute.sim.pubsub.tree import (
    TopicView,
    hierarchy_neighbours,
    resolve_topic,
    topic_object,
    view,
)

__all__ = ["ADMIN", "API", "CHAR_SCHEME", "INTER_QMGR_PUBS", "PROXY", "TOPIC_SCHEME",
           "Considered", "Inflight", "Origin", "PubSub", "SelectorError", "Subscription",
           "TopicView", "admin_subscriptions", "compile_selector", "consider",
           "fixed_prefix", "from_definition", "has_wildcard", "hierarchy_neighbours", "join",
           "managed_queue", "matches", "proxies", "publishable", "resolve_topic", "selects",
           "sub_id_for",
           "topic_object", "view"]
