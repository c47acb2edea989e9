"""MQSC definitions in, a `traceroute.sim.network.Network` out (and back to MQSC).

Reads MQSC as ``dmpmqcfg`` writes it and as people type it for ``runmqsc``.

Lines
    A command may be continued: when the last non-blank character of a line is ``-`` the
    command goes on with the whole next line (from column 1, leading blanks included); when it
    is ``+`` it goes on from the next line's first non-blank character. The sign is dropped and
    blanks before it are kept, so ``DESCR('Fr+`` / ``   ed')`` is ``Fred`` and ``DESCR('Fr-`` /
    ``   ed')`` is ``Fr   ed``; this holds inside quoted strings too. Comment lines (first
    non-blank character ``*``) and blank lines are skipped, also between the lines of one
    command (``dmpmqcfg`` comments out ALTDATE and ALTTIME that way). A ``;`` at the end of a
    line ends the command even after a continuation sign. Each command starts on a new line.

Words
    Keywords are read in any case. Command and object synonyms are those of the MQSC reference
    ("MQSC command and object synonyms"): ALT, DEF, DIS, REF, STA; CHL, CHS, LSTR, NL, PROC,
    Q, QA, QC, QL, QM, QR (from the DEFINE/DELETE QREMOTE pages), QS, TPC, TPS. DELETE and STOP
    have no synonym. Of the parameters only TARGQ is an old name (of TARGET, alias queues);
    every attribute, unknown ones too, is stored under its keyword in upper case.
    Keywords and values may be separated by blanks and commas.

Values
    Unquoted values are folded to upper case; quoted ones (``'...'``, ``''`` for a quote) keep
    their case but lose trailing blanks, which MQ pads with anyway, so ``DESCR(' ')`` is empty.
    Several values in one pair of parentheses (``NAMES(A, B)``, ``CONNAME(h1(1414),h2(1414))``)
    are joined with ``,``. A keyword with no value (REPLACE, NOSHARE, TRIGGER ...) has the
    value ``''``.

Which queue manager
    A comment ``* Queue manager name: QM1`` (dmpmqcfg's header) names the queue manager of the
    commands that follow it; a later one switches to another, so one file can hold several
    queue managers. Before the first such comment, commands go to the `qmgr` given to
    `parse_mqsc` (`read_mqsc` gives the file name's stem in upper case: ``qm1.mqsc`` -> QM1).
    A header creates its queue manager even when no command follows.

What the commands do
    DEFINE, ALTER and DELETE of QLOCAL, QREMOTE, QALIAS and QMODEL act on
    ``QueueManager.queues``, of CHANNEL on ``QueueManager.channels`` (CHLTYPE is required on
    DEFINE and must be one of SDR, RCVR, CLUSSDR, CLUSRCVR, SVR, RQSTR, SVRCONN, CLNTCONN, AMQP,
    MQTT), and of other object types (TOPIC, SUB, NAMELIST, PROCESS, LISTENER, SERVICE,
    AUTHINFO, COMMINFO and the z/OS STGCLASS, CFSTRUCT, BUFFPOOL, PSID) on
    ``QueueManager.others`` under ``(KIND, NAME)``, uninterpreted. ALTER QMGR merges into
    ``QueueManager.attrs``. As in MQ:

    * DEFINE of a name already in use fails unless REPLACE is given (MQ: AMQ8150E); REPLACE
      replaces the whole definition (attributes not given return to their defaults, which this
      model does not store). Queues of all four types share one name space, and neither
      REPLACE nor ALTER nor DELETE can cross types: DEFINE QLOCAL(X) REPLACE when X is a
      QREMOTE is an error, as is changing a channel's CHLTYPE (delete it first).
    * ALTER merges the attributes given; ALTER and DELETE of an object that is not defined fail
      (MQ: AMQ8147E). DELETE of a channel forgets that it was stopped.
    * LIKE(name) starts from the attributes of that object (same type, same queue manager);
      a LIKE of a SYSTEM.* object that the text does not define is accepted with no attributes.
      REPLACE, NOREPLACE, LIKE, FORCE and CMDSCOPE are options of the command, not attributes.

    STOP CHANNEL(name) adds the channel to ``QueueManager.stopped`` (unless STATUS(INACTIVE),
    which leaves a channel free to start again), START CHANNEL(name) removes it; a channel not
    defined fails (MQ: AMQ8227E) unless the queue manager is in a cluster (an auto-defined
    cluster sender has no definition). SET CHLAUTH, SET AUTHREC and SET POLICY (several
    records share one profile name) are kept in ``QueueManager.records`` by what identifies
    each (`crtmqm.record_key`), crtmqm's three CHLAUTH records to begin with; ACTION(REMOVE)
    of a CHLAUTH record that does not exist fails (MQ: AMQ8884E). START/STOP LISTENER and
    SERVICE keep ``QueueManager.running``. DISPLAY is skipped when reading configuration;
    REFRESH, RESET, PING, CLEAR and the rest are read, answered with MQ's message and change
    no definition.

Writing
    `to_mqsc` writes dmpmqcfg's layout: per queue manager a header comment, ALTER QMGR,
    DEFINE ... REPLACE for every queue, channel (CHLTYPE first) and other object of its own
    and every crtmqm object it altered, names quoted, one attribute a line, DELETE of the
    crtmqm objects it deleted, its SET CHLAUTH/AUTHREC/POLICY records (crtmqm's CHLAUTH
    records only when removed: ACTION(REMOVE)), then STOP CHANNEL and START LISTENER/SERVICE.
    Reading it back gives the same content (only the objects' source and line differ).

Errors
    Each command stands alone, as in runmqsc (`Session`): one that has a syntax error
    (unbalanced parentheses or quotes, a command or object type MQSC does not have, an object
    name missing or not a valid MQ name, a keyword twice or one MQ does not have for that
    command, an unfilled template placeholder) or that cannot be processed (the conflicts
    above) changes nothing, is reported with MQ's AMQ message and this model's reason
    (`MQSCError`: file, line, column), and the commands after it are applied.
    `read_mqsc` reads files (at most `MAX_MQSC_BYTES` each) as UTF-8 (a byte-order mark is
    ignored) and names the line and column of a byte that is not;
    ``MQSCError.located`` is the one-line ``FILE:LINE:COL: reason`` form for users.
"""

from traceroute.sim.mqsc.apply import (
    FAILED,
    OK,
    SKIPPED,
    SYNTAX,
    UNVERIFIED,
    Outcome,
    Session,
    parse_mqsc,
)
from traceroute.sim.mqsc.files import MAX_MQSC_BYTES, decode_mqsc, read_mqsc
from traceroute.sim.mqsc.syntax import CHANNEL_TYPES, Command, MQSCError, parse_commands
from traceroute.sim.mqsc.write import to_mqsc

__all__ = ["CHANNEL_TYPES", "FAILED", "MAX_MQSC_BYTES", "OK", "SKIPPED", "SYNTAX",
           "UNVERIFIED", "Command", "MQSCError", "Outcome", "Session", "decode_mqsc",
           "parse_commands", "parse_mqsc", "read_mqsc", "to_mqsc"]
