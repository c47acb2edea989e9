"""Text made safe to show: every control character visibly escaped, credentials masked.

Names in MQ data (queue managers, queues, channels, applications, descriptions) are whatever
the message holds: an escape sequence (ESC, CSI, OSC), another C0 or C1 control, a NUL, a
line break, a bidirectional override or a lone surrogate would act on a terminal, forge a
line, hide text, or make XML ill-formed. `printable` is the one function every text output
uses: it shows each such character as the JSON escape `\\uXXXX` (what `--json` prints for
it), so text output never carries one raw and shows what the data held.

Escaped: C0 controls (U+0000-U+001F), DEL and C1 (U+007F-U+009F), the line and paragraph
separators (U+2028, U+2029), bidirectional embeddings, overrides, isolates and marks
(U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), surrogates (U+D800-U+DFFF, from
undecodable bytes) and the non-characters U+FFFE, U+FFFF (not allowed in XML). A backslash
is kept as it is (Windows application names are full of them).
"""

from __future__ import annotations

import re

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")

_UNSAFE = ("\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
           "\ud800-\udfff\ufffe\uffff")
_PATTERN = re.compile(f"[{_UNSAFE}]")
_KEEPING: dict[str, re.Pattern[str]] = {"": _PATTERN}


def _escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def unsafe_pattern(keep: str = "") -> re.Pattern[str]:
    """The characters `printable` escapes, less those in `keep` (e.g. "\\n\\t")."""
    pattern = _KEEPING.get(keep)
    if pattern is None:
        chars = "".join(f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
                        for c in keep)
        pattern = re.compile(f"(?![{chars}])[{_UNSAFE}]") if keep else _PATTERN
        _KEEPING[keep] = pattern
    return pattern


def printable(text: str, keep: str = "") -> str:
    """`text` with every control character (see the module) shown as `\\uXXXX`; the
    characters in `keep` (say "\\n" for a block of lines) are left alone."""
    pattern = unsafe_pattern(keep)
    return pattern.sub(_escape, text) if pattern.search(text) else text


def is_printable(text: str, keep: str = "") -> bool:
    """True when `printable` would leave `text` as it is."""
    return unsafe_pattern(keep).search(text) is None


def masked(uri: str) -> str:
    """The URI with the password (or the whole user part when it has no password) masked."""
    m = _SCHEME.match(uri)
    if not m:
        return uri
    rest = uri[m.end():]
    authority, sep, tail = rest.partition("/")
    user, at, host = authority.rpartition("@")
    if not at:
        return uri
    name, colon, _secret = user.partition(":")
    shown = f"{name}:***" if colon else "***"
    return f"{uri[:m.end()]}{shown}@{host}{sep}{tail}"


def has_credentials(uri: str) -> bool:
    """True when a URI carries a user or password before its host (`s3://ID:KEY@bucket`)."""
    m = _SCHEME.match(uri)
    if not m:
        return False
    authority = uri[m.end():].partition("/")[0]
    return "@" in authority
