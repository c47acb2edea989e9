"""PCF codec: IBM MQ Programmable Command Format messages <-> typed trees, MQMD, dumps.

    >>> import pcf
    >>> message = pcf.decode(data, encoding=md.encoding, ccsid=md.coded_char_set_id,
    ...                      fmt=md.format)
    >>> print(pcf.render_tree(message))
"""

from pcf import mqc
from pcf.decoder import PCF_FORMATS, decode, is_pcf_format
from pcf.encoder import encode
from pcf.errors import DumpFormatError, PCFError
from pcf.model import (
    ByteString,
    ByteStringFilter,
    EmbeddedHeader,
    Group,
    Header,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcf.mqmd import MQMD
from pcf.names import name_of, parameter_name
from pcf.render import message_to_dict, render_tree

__all__ = [
    "MQMD",
    "PCF_FORMATS",
    "ByteString",
    "ByteStringFilter",
    "DumpFormatError",
    "EmbeddedHeader",
    "Group",
    "Header",
    "Integer",
    "Integer64",
    "Integer64List",
    "IntegerFilter",
    "IntegerList",
    "Message",
    "PCFError",
    "Parameter",
    "String",
    "StringFilter",
    "StringList",
    "decode",
    "encode",
    "is_pcf_format",
    "message_to_dict",
    "mqc",
    "name_of",
    "parameter_name",
    "render_tree",
]
