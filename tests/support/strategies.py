"""Hypothesis strategies for PCF messages (any structure, nesting, CCSID, byte order)."""

from __future__ import annotations

from hypothesis import strategies as st

import pcf
from pcf.codepages import CODECS

I32 = st.integers(-(2**31), 2**31 - 1)
I64 = st.integers(-(2**63), 2**63 - 1)
PARAM_IDS = st.one_of(st.sampled_from([1, 2, 1240, 2015, 3024, 7013, 8005]),
                      st.integers(0, 2**31 - 1))
STRING_CCSIDS = [0, 819, 1208, 500, 1047, 37, 1200, 850, 1252, 437]


def text_in(ccsid: int) -> st.SearchStrategy[str]:
    """Text representable in the CCSID, without MQ padding at its end."""
    codec = CODECS[ccsid]
    if codec.startswith("utf"):
        chars = st.characters(exclude_categories=("Cs",))
        return st.text(chars, max_size=12).map(lambda s: s.rstrip(" \x00"))
    return st.binary(max_size=12).map(lambda b: b.decode(codec, "ignore").rstrip(" \x00"))


@st.composite
def strings(draw, message_ccsid: int):
    """An MQCFST, MQCFSL or MQCFSF in some CCSID (0 = the message's)."""
    ccsid = draw(st.sampled_from(STRING_CCSIDS))
    text = text_in(ccsid or message_ccsid)
    pid = draw(PARAM_IDS)
    kind = draw(st.sampled_from(["st", "sl", "sf"]))
    if kind == "st":
        return pcf.String(pid, draw(text), ccsid)
    if kind == "sf":
        return pcf.StringFilter(pid, draw(I32), draw(text), ccsid)
    return pcf.StringList(pid, draw(st.lists(text, max_size=4)), ccsid)


def leaves(message_ccsid: int) -> st.SearchStrategy[pcf.Parameter]:
    """Any non-group parameter."""
    return st.one_of(
        st.builds(pcf.Integer, PARAM_IDS, I32),
        st.builds(pcf.Integer64, PARAM_IDS, I64),
        st.builds(pcf.ByteString, PARAM_IDS, st.binary(max_size=40)),
        st.builds(pcf.IntegerList, PARAM_IDS, st.lists(I32, max_size=6)),
        st.builds(pcf.Integer64List, PARAM_IDS, st.lists(I64, max_size=6)),
        st.builds(pcf.IntegerFilter, PARAM_IDS, I32, I32),
        st.builds(pcf.ByteStringFilter, PARAM_IDS, I32, st.binary(max_size=20)),
        strings(message_ccsid),
    )


def parameters(message_ccsid: int) -> st.SearchStrategy[list[pcf.Parameter]]:
    """A parameter list with groups nested up to several levels."""
    tree = st.recursive(
        leaves(message_ccsid),
        lambda children: st.builds(pcf.Group, PARAM_IDS, st.lists(children, max_size=5)),
        max_leaves=30,
    )
    return st.lists(tree, max_size=8)


@st.composite
def messages(draw):
    """A whole message: header, optional MQEPH and user data, byte order, CCSID."""
    ccsid = draw(st.sampled_from([819, 1208, 500, 37]))
    header = pcf.Header(*(draw(I32) for _ in range(7)))
    eph = None
    if draw(st.booleans()):
        fmt = draw(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ ", max_size=8)).rstrip()
        eph = pcf.EmbeddedHeader(draw(I32), draw(I32), fmt, draw(I32), draw(I32))
    return pcf.Message(header, draw(parameters(ccsid)), eph, draw(st.binary(max_size=16)),
                       draw(st.sampled_from([273, 546, 785, 0x111, 0x222])), ccsid)
