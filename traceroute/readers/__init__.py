"""Reading messages from files: the I/O edge towards dumps and raw message files.

`files` reads dmpmqmsg dumps and raw PCF files (`-` is standard input; pipes and FIFOs
work) into `InputMessage`s (MQMD, data, where it came from) and parses them into records,
reporting what cannot be read with its file, line and byte offset. Every read is bounded by
MQ's own limits (`pcf.limits`); a whole input that cannot be read raises
`pcf.errors.InputError` (an OSError naming it). May import `pcf` and the value packages
(`records` …); nothing in records, routes or display imports this package.
"""

from traceroute.readers.files import (
    STDIN,
    InputMessage,
    load_records,
    looks_binary,
    read_messages,
    source_name,
)

__all__ = ["STDIN", "InputMessage", "load_records", "looks_binary", "read_messages",
           "source_name"]
