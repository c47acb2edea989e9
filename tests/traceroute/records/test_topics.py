"""Wildcard matching against the rules and examples of IBM MQ's documentation.

The examples are those of "Topic-based wildcard scheme", "When topic-based wildcards are not
wild", "Wildcard schemes" and "Character-based wildcard scheme" (IBM MQ 9.x); each case says
what the page says of it. A property test holds the topic-based scheme to an independent
reading of the rules (a regular expression per pattern).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from traceroute.records.topics import (
    CHAR_SCHEME,
    TOPIC_SCHEME,
    fixed_prefix,
    has_wildcard,
    join,
    matches,
    publishable,
    system_wildcard_misplaced,
)

# (subscription, publication topic, matches?) -- "Topic-based wildcard scheme"
DOCUMENTED = [
    # "the subscription IBM/+/Results selects all the topics IBM/Software/Results,
    # IBM/Services/Results, IBM/Hardware/Results"
    ("IBM/+/Results", "IBM/Software/Results", True),
    ("IBM/+/Results", "IBM/Services/Results", True),
    ("IBM/+/Results", "IBM/Hardware/Results", True),
    # "if you subscribe to 'USA/Alaska/#', you receive messages on topics 'USA/Alaska' and
    # 'USA/Alaska/Juneau'"
    ("USA/Alaska/#", "USA/Alaska", True),
    ("USA/Alaska/#", "USA/Alaska/Juneau", True),
    # "'USA/#' can also match the singular 'USA', where '#' represents zero levels"
    ("USA/#", "USA", True),
    # "'#' and 'USA/#' are valid topics where the '#' character is treated as a wildcard"
    ("#", "USA/Alaska/Juneau", True),
    ("USA/#", "USA/Texas/Austin", True),
    # "although 'USA#' is also a valid topic string, the '#' character is not regarded as a
    # wildcard and does not have any special meaning"
    ("USA#", "USA#", True),
    ("USA#", "USA", False),
    ("USA#", "USA/Alaska", False),
    # "'USA/+' matches 'USA/Alabama', but not 'USA/Alabama/Auburn'"
    ("USA/+", "USA/Alabama", True),
    ("USA/+", "USA/Alabama/Auburn", False),
    # "because the single-level wildcard matches only a single level, 'USA/+' does not match
    # 'USA'"
    ("USA/+", "USA", False),
    # "'+' and 'USA/+' are valid topics where the '+' character is treated as a wildcard.
    # However, although 'USA+' is also a valid topic string, the '+' character is not
    # regarded as a wildcard"
    ("+", "USA", True),
    ("+", "USA/Alabama", False),
    ("USA+", "USA+", True),
    ("USA+", "USAX", False),
    # the single-level wildcard "can be used at any level ... and in conjunction with the
    # multilevel wildcard"
    ("+/+/#", "USA/Alaska", True),
    ("+/+/#", "USA", False),
    ("USA/+/#", "USA/Alaska/Juneau/Downtown", True),
    # "Wildcard schemes" examples: '#/Results' (any number of levels before Results)
    ("#/Results", "IBM/Software/Results", True),
    ("#/Results", "Results", True),
    ("#/Results", "IBM/Patents/Software/Results", True),
    ("#/Results", "IBM/Software/Results/2024", False),
    ("IBM/Software/Results", "IBM/Software/Results", True),
    ("IBM/Software/Results", "IBM/Hardware/Results", False),
    # "Character-based wildcard scheme": "'x/#/y' ... selects all topics in the topic
    # hierarchy between levels x and y"
    ("x/#/y", "x/y", True),
    ("x/#/y", "x/a/y", True),
    ("x/#/y", "x/a/b/y", True),
    ("x/#/y", "x/a/b", False),
    # "When topic-based wildcards are not wild": in 'level0/level1/#+/level4/level#' the
    # '+' and '#' are not wildcards, "so the topic string can be both published and
    # subscribed to"
    ("level0/level1/#+/level4/level#", "level0/level1/#+/level4/level#", True),
    ("level0/level1/#+/level4/level#", "level0/level1/x/level4/levelY", False),
    # ... while in 'level0/level1/+/level4/#' they are wildcards
    ("level0/level1/+/level4/#", "level0/level1/level2/level4", True),
    ("level0/level1/+/level4/#", "level0/level1/level2/level4/level5/level6", True),
    ("level0/level1/+/level4/#", "level0/level1/level4", False),
    # empty levels are levels ("Topic strings": a leading '/' is a leading empty node)
    ("+/+", "/finance", True),
    ("/+", "/finance", True),
    ("+", "/finance", False),
]


@pytest.mark.parametrize("pattern,topic,expected", DOCUMENTED)
def test_documented_topic_based_examples(pattern, topic, expected):
    assert matches(pattern, topic) is expected


# "Character-based wildcard scheme": '*' zero or more characters, '?' one, '%' escapes
CHARACTER = [
    ("IBM/*/Results", "IBM/Software/Results", True),
    # "'IBM/*/Results' would also select 'IBM/Patents/Software/Results'"
    ("IBM/*/Results", "IBM/Patents/Software/Results", True),
    # "'IBM/*ware/Results' has no topic-based equivalent"
    ("IBM/*ware/Results", "IBM/Software/Results", True),
    ("IBM/*ware/Results", "IBM/Hardware/Results", True),
    ("IBM/*ware/Results", "IBM/Services/Results", False),
    ("Sport/Soccer/?esults", "Sport/Soccer/Results", True),
    # '%' escapes the next '*', '?' or '%' ("ABC%*D represents the actual topic ABC*D")
    ("ABC%*D", "ABC*D", True),
    ("ABC%*D", "ABCxD", False),
    ("ABC?D", "ABC*D", True),
    ("100%%", "100%", True),
    # '#' and '+' mean nothing in the character scheme
    ("USA/#", "USA/#", True),
    ("USA/#", "USA/Alaska", False),
]


@pytest.mark.parametrize("pattern,topic,expected", CHARACTER)
def test_documented_character_based_examples(pattern, topic, expected):
    assert matches(pattern, topic, CHAR_SCHEME) is expected


def test_what_a_publisher_may_use():
    # "The multilevel wildcard and single level wildcard can be used for subscriptions, but
    # they cannot be used within a topic by the publisher of a message" -- unless mixed
    # with other characters in a level ("When topic-based wildcards are not wild")
    assert publishable("USA/Alaska") and publishable("USA#") and publishable("a/#+/b")
    assert not publishable("USA/#") and not publishable("+/Results")
    assert not publishable("#") and not publishable("+")
    assert has_wildcard("IBM/+/Results") and not has_wildcard("IBM+/Results")
    assert has_wildcard("IBM/*/Results", CHAR_SCHEME) and not has_wildcard("IBM%*",
                                                                            CHAR_SCHEME)


def test_topic_objects_and_strings_join_with_a_slash():
    assert join("Sport", "Soccer/Results") == "Sport/Soccer/Results"
    assert join("", "Soccer") == "Soccer" and join("Sport", "") == "Sport"
    assert fixed_prefix("Sport/+/Results") == "Sport"
    assert fixed_prefix("#") == "" and fixed_prefix("a/b") == "a/b"


# --- an independent reading of the rules, for any pattern and topic -------------------------

def _reference(pattern: list[str], topic: list[str]) -> bool:
    """The rules read literally, by recursion over the levels: '#' takes zero or more
    levels, '+' exactly one, anything else itself."""
    if not pattern:
        return not topic
    head, rest = pattern[0], pattern[1:]
    if head == "#":
        return any(_reference(rest, topic[k:]) for k in range(len(topic) + 1))
    if not topic:
        return False
    return (head == "+" or head == topic[0]) and _reference(rest, topic[1:])


_LEVEL = st.sampled_from(["a", "b", "", "#", "+", "a#", "+b"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_LEVEL, min_size=1, max_size=5), st.lists(st.sampled_from(["a", "b", "",
                                                                          "a#", "+b"]),
                                                          min_size=1, max_size=6))
def test_matching_agrees_with_an_independent_reading(pattern, topic):
    p, t = "/".join(pattern), "/".join(topic)
    assert matches(p, t) == _reference(p.split("/"), t.split("/")), (p, t)


def test_matching_is_linear_on_many_multilevel_wildcards():
    # '#/#/#/...' against a long topic: no backtracking blow-up
    pattern = "/".join(["#"] * 200) + "/z"
    topic = "/".join(["a"] * 2000)
    assert not matches(pattern, topic)
    assert matches(pattern, topic + "/z")


# --- the $SYS/MQ branch (seed 002, "System topics for monitoring and activity trace") -------

TRACE_TOPIC = "$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqsput"


@pytest.mark.parametrize("pattern, scheme, selected", [
    ("#", TOPIC_SCHEME, False),               # a wildcard above $SYS/MQ: nothing in it
    ("+/MQ/#", TOPIC_SCHEME, False),
    ("$SYS/#", TOPIC_SCHEME, False),          # still above $SYS/MQ
    ("*", CHAR_SCHEME, False),
    ("$SYS*", CHAR_SCHEME, False),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/#", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/+", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqs*", CHAR_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqs?ut", CHAR_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ChannelName/#", TOPIC_SCHEME, False),
    (TRACE_TOPIC, TOPIC_SCHEME, True),
])
def test_the_system_branch_is_selected_only_from_inside(pattern, scheme, selected):
    assert matches(pattern, TRACE_TOPIC, scheme) is selected


@pytest.mark.parametrize("pattern, scheme, refused", [
    ("$SYS/MQ/#", TOPIC_SCHEME, True),
    ("$SYS/+/INFO/QMGR/QM1/ActivityTrace/ApplName/x", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/+/ActivityTrace/ApplName/x", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/#", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/+/ApplName/x", TOPIC_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM?/ActivityTrace/ApplName/x", CHAR_SCHEME, True),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/#", TOPIC_SCHEME, False),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ChannelName/+", TOPIC_SCHEME, False),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqs*", CHAR_SCHEME, False),
    ("$SYS/MQ/INFO/QMGR/QM1/ActivityTrace/ApplName/amqsput", TOPIC_SCHEME, False),
    ("Sport/#", TOPIC_SCHEME, False),
    ("#", TOPIC_SCHEME, False),
])
def test_wildcards_in_the_fixed_system_levels(pattern, scheme, refused):
    assert system_wildcard_misplaced(pattern, scheme) is refused
