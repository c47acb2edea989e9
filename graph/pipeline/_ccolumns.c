/* Optional compiled paths of the analyze job: raw messages -> `operations` columns, and
 * operation columns -> `routes`/`hops` columns for the common chain, as Arrow buffers.
 *
 * graph/pipeline/compiled.py loads this module and hands it Arrow arrays' buffers; what it
 * returns are the buffers of Arrow arrays (validity bitmaps, int32 offsets, values), so no
 * Python object is made per message, parameter, operation or hop.
 *
 * Both functions take only what they can answer exactly as the Python code does and name
 * the rest, which the caller sends through the Python path (the reference, tested equal):
 *
 *  - operations(): an activity report or trace-route message/reply whose MQMD is an ASCII
 *    version 1/2 MQMD (or absent), whose Format is a PCF format, whose PCF is well formed
 *    (every check pcf.decoder makes), and whose strings that reach a column are in CCSID
 *    1208, 819 or 367 with ASCII dates and times. What it gives is what
 *    graph.pipeline.classify.classify_batches gives for such a message (operation rows,
 *    `first` on the first): graph.pipeline.opvalues.operation_tuples' fields, the date and
 *    time checked as classify's checked_date / checked_time, values that do not fit their
 *    column null (schema.fit_array).
 *  - routes(): the original messages of operation rows sorted by correl_id whose activities
 *    are one chain (every activity has its counters and each recorded count one activity
 *    after duplicates are merged): traceroute.routes.ordering.route_of's route of them and
 *    graph.pipeline.rows.route_values' route row and hop rows. A message that is not one
 *    chain (branches, activities without counters, ...) is named for the Python ordering.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- growable Arrow column builders ----------------------------------------------------- */

enum { C_STR, C_I32, C_I64, C_BOOL };

typedef struct {
    int kind;
    Py_ssize_t n, cap;    /* rows */
    uint8_t *valid;       /* bitmap, cap/8 bytes */
    Py_ssize_t nulls;
    void *values;         /* int32/int64 values, bool bitmap, or int32 offsets (cap+1) */
    char *data;           /* string bytes */
    Py_ssize_t dlen, dcap;
} Col;

static int col_init(Col *c, int kind) {
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->cap = 1024;
    c->valid = calloc(c->cap / 8 + 1, 1);
    size_t width = kind == C_I64 ? 8 : kind == C_BOOL ? 0 : 4;
    c->values = kind == C_BOOL ? calloc(c->cap / 8 + 1, 1)
                               : calloc((size_t)c->cap + 1, width);
    if (kind == C_STR) {
        c->dcap = 16384;
        c->data = malloc(c->dcap);
    }
    if (!c->valid || !c->values || (kind == C_STR && !c->data)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void col_free(Col *c) {
    free(c->valid);
    free(c->values);
    free(c->data);
    memset(c, 0, sizeof *c);
}

static int col_room(Col *c) {
    if (c->n + 1 < c->cap) return 0;
    Py_ssize_t cap = c->cap * 2;
    uint8_t *valid = realloc(c->valid, cap / 8 + 1);
    if (!valid) { PyErr_NoMemory(); return -1; }
    memset(valid + c->cap / 8 + 1, 0, cap / 8 - c->cap / 8);
    c->valid = valid;
    if (c->kind == C_BOOL) {
        uint8_t *bits = realloc(c->values, cap / 8 + 1);
        if (!bits) { PyErr_NoMemory(); return -1; }
        memset(bits + c->cap / 8 + 1, 0, cap / 8 - c->cap / 8);
        c->values = bits;
    } else {
        size_t width = c->kind == C_I64 ? 8 : 4;
        void *values = realloc(c->values, ((size_t)cap + 1) * width);
        if (!values) { PyErr_NoMemory(); return -1; }
        c->values = values;
    }
    c->cap = cap;
    return 0;
}

static int col_data(Col *c, Py_ssize_t more) {
    if (c->dlen + more <= c->dcap) return 0;
    Py_ssize_t cap = c->dcap * 2;
    while (cap < c->dlen + more) cap *= 2;
    if (cap > INT32_MAX) {  /* int32 offsets: a batch of over 2 GB of text is not made here */
        PyErr_SetString(PyExc_OverflowError, "string column over 2 GB");
        return -1;
    }
    char *data = realloc(c->data, cap);
    if (!data) { PyErr_NoMemory(); return -1; }
    c->data = data;
    c->dcap = cap;
    return 0;
}

static inline void set_bit(uint8_t *bits, Py_ssize_t i) { bits[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static inline void clear_bit(uint8_t *bits, Py_ssize_t i) { bits[i >> 3] &= (uint8_t)~(1u << (i & 7)); }
static inline int get_bit(const uint8_t *bits, Py_ssize_t i) { return bits[i >> 3] >> (i & 7) & 1; }

static int col_null(Col *c) {
    if (col_room(c) < 0) return -1;
    clear_bit(c->valid, c->n);
    if (c->kind == C_STR) ((int32_t *)c->values)[c->n + 1] = (int32_t)c->dlen;
    else if (c->kind == C_I32) ((int32_t *)c->values)[c->n] = 0;
    else if (c->kind == C_I64) ((int64_t *)c->values)[c->n] = 0;
    else clear_bit(c->values, c->n);
    c->n++;
    c->nulls++;
    return 0;
}

static int col_i32(Col *c, int32_t v) {
    if (col_room(c) < 0) return -1;
    set_bit(c->valid, c->n);
    ((int32_t *)c->values)[c->n++] = v;
    return 0;
}

static int col_i64(Col *c, int64_t v) {
    if (col_room(c) < 0) return -1;
    set_bit(c->valid, c->n);
    ((int64_t *)c->values)[c->n++] = v;
    return 0;
}

static int col_bool(Col *c, int v) {
    if (col_room(c) < 0) return -1;
    set_bit(c->valid, c->n);
    if (v) set_bit(c->values, c->n); else clear_bit(c->values, c->n);
    c->n++;
    return 0;
}

/* A string value from bytes that are already UTF-8. */
static int col_str(Col *c, const char *s, Py_ssize_t len) {
    if (col_room(c) < 0 || col_data(c, len) < 0) return -1;
    memcpy(c->data + c->dlen, s, len);
    c->dlen += len;
    set_bit(c->valid, c->n);
    ((int32_t *)c->values)[++c->n] = (int32_t)c->dlen;
    return 0;
}

/* A string value from Latin-1 bytes (each byte its code point), written as UTF-8. */
static int col_latin1(Col *c, const unsigned char *s, Py_ssize_t len) {
    if (col_room(c) < 0 || col_data(c, 2 * len) < 0) return -1;
    char *out = c->data + c->dlen;
    for (Py_ssize_t i = 0; i < len; i++) {
        unsigned char b = s[i];
        if (b < 0x80) {
            *out++ = (char)b;
        } else {
            *out++ = (char)(0xC0 | b >> 6);
            *out++ = (char)(0x80 | (b & 0x3F));
        }
    }
    c->dlen = out - c->data;
    set_bit(c->valid, c->n);
    ((int32_t *)c->values)[++c->n] = (int32_t)c->dlen;
    return 0;
}

static const char HEX[] = "0123456789abcdef";

static int col_hex(Col *c, const unsigned char *s, Py_ssize_t len) {
    if (col_room(c) < 0 || col_data(c, 2 * len) < 0) return -1;
    char *out = c->data + c->dlen;
    for (Py_ssize_t i = 0; i < len; i++) {
        *out++ = HEX[s[i] >> 4];
        *out++ = HEX[s[i] & 15];
    }
    c->dlen += 2 * len;
    set_bit(c->valid, c->n);
    ((int32_t *)c->values)[++c->n] = (int32_t)c->dlen;
    return 0;
}

/* Forget the rows from `n` on (a message that turned out not to be ours). */
static void col_truncate(Col *c, Py_ssize_t n) {
    if (n >= c->n) return;
    for (Py_ssize_t i = n; i < c->n; i++)
        if (!get_bit(c->valid, i)) c->nulls--;
    c->n = n;
    if (c->kind == C_STR) c->dlen = ((int32_t *)c->values)[n];
}

/* The column as (length, null count, validity bytes or None, values bytes[, data bytes]). */
static PyObject *col_result(Col *c) {
    Py_ssize_t n = c->n;
    PyObject *valid = c->nulls ? PyBytes_FromStringAndSize((char *)c->valid, (n + 7) / 8)
                               : Py_NewRef(Py_None);
    PyObject *values;
    if (c->kind == C_STR) {
        values = PyBytes_FromStringAndSize((char *)c->values, (n + 1) * 4);
    } else if (c->kind == C_BOOL) {
        values = PyBytes_FromStringAndSize((char *)c->values, (n + 7) / 8);
    } else {
        values = PyBytes_FromStringAndSize((char *)c->values, n * (c->kind == C_I64 ? 8 : 4));
    }
    PyObject *data = c->kind == C_STR ? PyBytes_FromStringAndSize(c->data, c->dlen)
                                      : Py_NewRef(Py_None);
    if (!valid || !values || !data) {
        Py_XDECREF(valid);
        Py_XDECREF(values);
        Py_XDECREF(data);
        return NULL;
    }
    return Py_BuildValue("(nnNNN)", n, c->nulls, valid, values, data);
}

/* ---- Arrow input arrays ------------------------------------------------------------------ */

/* A binary or string array as given by pyarrow: its validity bitmap (or none), offsets
 * (32 or 64 bits) and data, and the array's offset into them. */
typedef struct {
    Py_buffer valid, offsets, data;
    int has_valid, wide;
    Py_ssize_t offset, length;
} Bin;

static void bin_release(Bin *b) {
    if (b->has_valid) PyBuffer_Release(&b->valid);
    if (b->offsets.obj) PyBuffer_Release(&b->offsets);
    if (b->data.obj) PyBuffer_Release(&b->data);
}

/* From a tuple (validity or None, offsets, data or None, offset, length, wide). */
static int bin_get(PyObject *t, Bin *b) {
    memset(b, 0, sizeof *b);
    PyObject *valid, *offsets, *data;
    if (!PyArg_ParseTuple(t, "OOOnnp", &valid, &offsets, &data, &b->offset, &b->length,
                          &b->wide))
        return -1;
    if (valid != Py_None) {
        if (PyObject_GetBuffer(valid, &b->valid, PyBUF_SIMPLE) < 0) return -1;
        b->has_valid = 1;
    }
    if (PyObject_GetBuffer(offsets, &b->offsets, PyBUF_SIMPLE) < 0) { bin_release(b); return -1; }
    if (data != Py_None && PyObject_GetBuffer(data, &b->data, PyBUF_SIMPLE) < 0) {
        bin_release(b);
        return -1;
    }
    Py_ssize_t width = b->wide ? 8 : 4;
    if (b->offset < 0 || b->length < 0
        || (b->offset + b->length + 1) * width > b->offsets.len
        || (b->has_valid && (b->offset + b->length + 7) / 8 > b->valid.len)) {
        bin_release(b);
        PyErr_SetString(PyExc_ValueError, "array buffers too short");
        return -1;
    }
    return 0;
}

/* Row i's bytes: 1 and (ptr, len), or 0 when null. -1 when the offsets are wrong. */
static int bin_at(const Bin *b, Py_ssize_t i, const unsigned char **p, Py_ssize_t *len) {
    Py_ssize_t k = b->offset + i;
    if (b->has_valid && !get_bit(b->valid.buf, k)) return 0;
    int64_t lo, hi;
    if (b->wide) {
        lo = ((const int64_t *)b->offsets.buf)[k];
        hi = ((const int64_t *)b->offsets.buf)[k + 1];
    } else {
        lo = ((const int32_t *)b->offsets.buf)[k];
        hi = ((const int32_t *)b->offsets.buf)[k + 1];
    }
    if (lo < 0 || hi < lo || (hi > 0 && (b->data.obj == NULL || hi > b->data.len))) return -1;
    *p = hi > 0 ? (const unsigned char *)b->data.buf + lo : (const unsigned char *)"";
    *len = (Py_ssize_t)(hi - lo);
    return 1;
}

/* ---- PCF reading ------------------------------------------------------------------------- */

static inline int32_t rd32(const unsigned char *p, int little) {
    uint32_t v = little
        ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
        : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
    return (int32_t)v;
}

static inline int64_t rd64(const unsigned char *p, int little) {
    uint64_t v = 0;
    if (little) {
        for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    } else {
        for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    }
    return (int64_t)v;
}

#define MAX_DEPTH 32  /* pcf.limits.MAX_DEPTH (compiled.py checks it) */

/* Every structural check of pcf.decoder over `count` structures from *off (to `end`):
 * 0 well formed (*off moved past them), -1 not. */
static int check(const unsigned char *buf, Py_ssize_t end, int little, Py_ssize_t *off,
                 long count, int depth) {
    Py_ssize_t o = *off;
    for (long k = 0; k < count; k++) {
        Py_ssize_t left = end - o;
        if (left < 12) return -1;
        int32_t typ = rd32(buf + o, little), length = rd32(buf + o + 4, little);
        if (length < 16 || (length & 3) || length > left) return -1;
        switch (typ) {
        case 3: break;                                        /* MQCFIN */
        case 4: {                                             /* MQCFST */
            if (length < 20) return -1;
            int32_t slen = rd32(buf + o + 16, little);
            if (slen < 0 || slen > length - 20) return -1;
            break;
        }
        case 20: {                                            /* MQCFGR */
            int32_t members = rd32(buf + o + 12, little);
            if (depth >= MAX_DEPTH || members < 0) return -1;
            Py_ssize_t inner = o + length;
            if (check(buf, end, little, &inner, members, depth + 1) < 0) return -1;
            o = inner;
            continue;
        }
        case 9: {                                             /* MQCFBS */
            int32_t slen = rd32(buf + o + 12, little);
            if (slen < 0 || slen > length - 16) return -1;
            break;
        }
        case 23:                                              /* MQCFIN64 */
            if (length < 24) return -1;
            break;
        case 5:
        case 25: {                                            /* MQCFIL, MQCFIL64 */
            int32_t n = rd32(buf + o + 12, little);
            Py_ssize_t size = typ == 5 ? 4 : 8;
            if (n < 0 || 16 + size * (Py_ssize_t)n > length) return -1;
            break;
        }
        case 6: {                                             /* MQCFSL */
            if (length < 24) return -1;
            int32_t n = rd32(buf + o + 16, little), slen = rd32(buf + o + 20, little);
            if (n < 0 || slen < 0 || 24 + (Py_ssize_t)n * slen > length || n > length)
                return -1;
            break;
        }
        case 13:                                              /* MQCFIF */
            if (length < 20) return -1;
            break;
        case 14: {                                            /* MQCFSF */
            if (length < 24) return -1;
            int32_t slen = rd32(buf + o + 20, little);
            if (slen < 0 || slen > length - 24) return -1;
            break;
        }
        case 15: {                                            /* MQCFBF */
            if (length < 20) return -1;
            int32_t slen = rd32(buf + o + 16, little);
            if (slen < 0 || slen > length - 20) return -1;
            break;
        }
        default:
            return -1;
        }
        o += length;
    }
    *off = o;
    return 0;
}

/* MQ constants (compiled.py checks them against pcf.mqc). */
enum {
    T_INT = 3, T_STR = 4, T_BSTR = 9, T_GROUP = 20, T_INT64 = 23,
    ACTIVITY = 8005, TRACE_ROUTE = 8003, OPERATION = 8004, MESSAGE = 8007, MQMD_GROUP = 8008,
    EMBEDDED_MQMD = 8006, MSG_ID = 7013, APPL_NAME = 3024, APPL_TYPE = 1, ACTIVITY_DESC = 3134,
    RECORDED = 1235, UNRECORDED = 1257, DISCONTINUITY = 1237,
    OP_DATE = 3132, OP_TIME = 3133, QMGR_NAME = 2015, Q_NAME = 2016, RESOLVED_Q = 3141,
    REMOTE_Q = 2018, REMOTE_QMGR = 2017, TOPIC = 2094, CHANNEL = 3501, XMIT_Q = 3505,
    OP_TYPE = 1240, CHANNEL_TYPE = 1511, FEEDBACK = 1245,
    CFT_REPORT = 12, CMD_ACTIVITY = 69, CFT_TRACE_ROUTE = 10, CMD_TRACE_ROUTE = 75,
    MT_REPLY = 2,
};

/* The text slots of an operation, in the order of the operation columns. */
enum { S_DATE, S_TIME, S_QMGR, S_QUEUE, S_RESOLVED, S_REMOTE_Q, S_REMOTE_QMGR, S_TOPIC,
       S_CHANNEL, S_XMITQ, N_TEXT };
enum { I_TYPE, I_CHANNEL_TYPE, I_FEEDBACK, N_INT };

typedef struct { const unsigned char *p; int32_t len, ccsid; int set; } Text;
typedef struct { int set; int64_t v; } Num;

enum { ID_NONE, ID_ZERO, ID_BYTES };  /* no MQMD group; one whose MsgId is not an MQCFBS */
typedef struct { int kind; const unsigned char *p; int32_t len; } Id;

typedef struct {
    Text text[N_TEXT];
    Num num[N_INT];
    Id md, emb;
} Op;

typedef struct {
    Text appl_name, desc;
    Num appl_type;
    Num counters[3];  /* recorded, unrecorded, discontinuity; recorded unset: none */
    Py_ssize_t first_op, n_ops;
} Act;

typedef struct {
    Op *ops;
    Act *acts;
    Py_ssize_t n_ops, cap_ops, n_acts, cap_acts;
} Scratch;

static int text_id(int32_t pid) {
    switch (pid) {
    case OP_DATE: return S_DATE;
    case OP_TIME: return S_TIME;
    case QMGR_NAME: return S_QMGR;
    case Q_NAME: return S_QUEUE;
    case RESOLVED_Q: return S_RESOLVED;
    case REMOTE_Q: return S_REMOTE_Q;
    case REMOTE_QMGR: return S_REMOTE_QMGR;
    case TOPIC: return S_TOPIC;
    case CHANNEL: return S_CHANNEL;
    case XMIT_Q: return S_XMITQ;
    default: return -1;
    }
}

static int int_id(int32_t pid) {
    switch (pid) {
    case OP_TYPE: return I_TYPE;
    case CHANNEL_TYPE: return I_CHANNEL_TYPE;
    case FEEDBACK: return I_FEEDBACK;
    default: return -1;
    }
}

typedef struct {
    const unsigned char *buf;
    int little;
} Msg;

/* An MQCFST's text at o (structure known well formed). */
static inline Text text_at(const Msg *m, Py_ssize_t o) {
    Text t;
    t.ccsid = rd32(m->buf + o + 12, m->little);
    t.len = rd32(m->buf + o + 16, m->little);
    t.p = m->buf + o + 20;
    t.set = 1;
    return t;
}

/* The offset after the (well-formed) structure at o, a group's members included. */
static Py_ssize_t after(const Msg *m, Py_ssize_t o) {
    int32_t typ = rd32(m->buf + o, m->little), length = rd32(m->buf + o + 4, m->little);
    if (typ != T_GROUP) return o + length;
    int32_t members = rd32(m->buf + o + 12, m->little);
    o += length;
    for (int32_t k = 0; k < members; k++) o = after(m, o);
    return o;
}

/* TraceRoute counters: of each id the first MQCFIN or MQCFIN64 (`_counters`). */
static void counters_of(const Msg *m, Py_ssize_t o, Num out[3]) {
    int32_t members = rd32(m->buf + o + 12, m->little);
    memset(out, 0, sizeof(Num) * 3);
    o += rd32(m->buf + o + 4, m->little);
    for (int32_t k = 0; k < members; k++) {
        int32_t typ = rd32(m->buf + o, m->little), length = rd32(m->buf + o + 4, m->little);
        int32_t pid = rd32(m->buf + o + 8, m->little);
        int slot = pid == RECORDED ? 0 : pid == UNRECORDED ? 1 : pid == DISCONTINUITY ? 2 : -1;
        if (slot >= 0 && !out[slot].set && (typ == T_INT || typ == T_INT64)) {
            out[slot].set = 1;
            out[slot].v = typ == T_INT ? rd32(m->buf + o + 12, m->little)
                                       : rd64(m->buf + o + 16, m->little);
        }
        o = typ == T_GROUP ? after(m, o) : o + length;
    }
}

/* The MsgId of an MQMD group at o: its last MQBACF_MSG_ID member, if an MQCFBS. */
static Id msg_id_of(const Msg *m, Py_ssize_t o) {
    Id id = {ID_ZERO, NULL, 0};
    int32_t members = rd32(m->buf + o + 12, m->little);
    o += rd32(m->buf + o + 4, m->little);
    for (int32_t k = 0; k < members; k++) {
        if (rd32(m->buf + o + 8, m->little) == MSG_ID) {
            if (rd32(m->buf + o, m->little) == T_BSTR) {
                id.kind = ID_BYTES;
                id.len = rd32(m->buf + o + 12, m->little);
                id.p = m->buf + o + 16;
            } else {
                id.kind = ID_ZERO;
            }
        }
        o = after(m, o);
    }
    return id;
}

/* An Operation group at o (`opvalues._operation`): of repeated members the last counts,
 * members of another structure type are ignored; of the Message group (the last one) the
 * first MQMD and EmbeddedMQMD members, when they are groups. */
static void operation_of(const Msg *m, Py_ssize_t o, Op *op) {
    memset(op, 0, sizeof *op);
    int32_t members = rd32(m->buf + o + 12, m->little);
    o += rd32(m->buf + o + 4, m->little);
    for (int32_t k = 0; k < members; k++) {
        int32_t typ = rd32(m->buf + o, m->little), pid = rd32(m->buf + o + 8, m->little);
        int slot;
        if ((slot = text_id(pid)) >= 0) {
            if (typ == T_STR) op->text[slot] = text_at(m, o);
        } else if ((slot = int_id(pid)) >= 0) {
            if (typ == T_INT) {
                op->num[slot].set = 1;
                op->num[slot].v = rd32(m->buf + o + 12, m->little);
            }
        } else if (pid == MESSAGE && typ == T_GROUP) {
            int32_t inner = rd32(m->buf + o + 12, m->little);
            Py_ssize_t at = o + rd32(m->buf + o + 4, m->little);
            int md_seen = 0, emb_seen = 0;
            op->md.kind = op->emb.kind = ID_NONE;
            for (int32_t j = 0; j < inner; j++) {
                int32_t t = rd32(m->buf + at, m->little), p = rd32(m->buf + at + 8, m->little);
                if (p == MQMD_GROUP && !md_seen) {
                    md_seen = 1;
                    if (t == T_GROUP) op->md = msg_id_of(m, at);
                } else if (p == EMBEDDED_MQMD && !emb_seen) {
                    emb_seen = 1;
                    if (t == T_GROUP) op->emb = msg_id_of(m, at);
                }
                at = after(m, at);
            }
        }
        o = after(m, o);
    }
}

static int grow(void **items, Py_ssize_t *cap, Py_ssize_t need, size_t size) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap * 2 : 64;
    while (c < need) c *= 2;
    void *p = realloc(*items, (size_t)c * size);
    if (!p) { PyErr_NoMemory(); return -1; }
    *items = p;
    *cap = c;
    return 0;
}

/* An Activity group at o (`parse.activity_parts`). -1: out of memory. */
static int activity_of(const Msg *m, Py_ssize_t o, Scratch *s) {
    if (grow((void **)&s->acts, &s->cap_acts, s->n_acts + 1, sizeof(Act)) < 0) return -1;
    Act *a = &s->acts[s->n_acts++];
    memset(a, 0, sizeof *a);
    a->first_op = s->n_ops;
    int32_t members = rd32(m->buf + o + 12, m->little);
    o += rd32(m->buf + o + 4, m->little);
    for (int32_t k = 0; k < members; k++) {
        int32_t typ = rd32(m->buf + o, m->little), pid = rd32(m->buf + o + 8, m->little);
        if (pid == OPERATION && typ == T_GROUP) {
            if (grow((void **)&s->ops, &s->cap_ops, s->n_ops + 1, sizeof(Op)) < 0) return -1;
            a = &s->acts[s->n_acts - 1];
            operation_of(m, o, &s->ops[s->n_ops++]);
            a->n_ops++;
        } else if (pid == APPL_NAME && typ == T_STR) {
            a->appl_name = text_at(m, o);
        } else if (pid == APPL_TYPE && typ == T_INT) {
            a->appl_type.set = 1;
            a->appl_type.v = rd32(m->buf + o + 12, m->little);
        } else if (pid == ACTIVITY_DESC && typ == T_STR) {
            a->desc = text_at(m, o);
        } else if (pid == TRACE_ROUTE && typ == T_GROUP) {
            counters_of(m, o, a->counters);
        }
        o = after(m, o);
    }
    return 0;
}

/* Python's strict UTF-8 (no overlongs, surrogates or code points past U+10FFFF). */
static int utf8_ok(const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) { i++; continue; }
        int more;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) { more = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { more = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { more = 3; cp = c & 0x07; }
        else return 0;
        if (i + more >= n) return 0;
        for (int k = 1; k <= more; k++) {
            unsigned char d = s[i + k];
            if ((d & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (d & 0x3F);
        }
        if ((more == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            || (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += more + 1;
    }
    return 1;
}

static inline Py_ssize_t stripped(const unsigned char *p, Py_ssize_t n) {
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == 0)) n--;
    return n;
}

/* Whether a text can be made here: its CCSID (0: the message's) is 1208, 819 or 367. */
static inline int text_ok(const Text *t, long msg_ccsid) {
    long eff = t->ccsid ? t->ccsid : msg_ccsid;
    return !t->set || eff == 1208 || eff == 819 || eff == 367;
}

/* A text as `parse.text_of` reads it: decoded in its CCSID, padding stripped; bytes that
 * are not valid in it read as Latin-1 (367 and 819: Latin-1 either way). */
static int put_text(Col *c, const Text *t, long msg_ccsid) {
    Py_ssize_t n = stripped(t->p, t->len);
    long eff = t->ccsid ? t->ccsid : msg_ccsid;
    if (eff == 1208 && utf8_ok(t->p, n)) return col_str(c, (const char *)t->p, n);
    return col_latin1(c, t->p, n);
}

static int ascii(const unsigned char *p, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) if (p[i] >= 0x80) return 0;
    return 1;
}

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* classify.checked_date on ASCII text: '' or 'YYYY-MM-DD' of a real day. */
static int date_ok(const unsigned char *p, Py_ssize_t n) {
    if (n == 0) return 1;
    if (n != 10 || p[4] != '-' || p[7] != '-') return 0;
    for (int i = 0; i < 10; i++) if (i != 4 && i != 7 && !is_digit(p[i])) return 0;
    int y = (p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0');
    int mo = (p[5] - '0') * 10 + (p[6] - '0'), d = (p[8] - '0') * 10 + (p[9] - '0');
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1 || mo < 1 || mo > 12 || d < 1) return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= days[mo - 1] + (mo == 2 && leap);
}

/* classify.checked_time on ASCII text: '' or HH:MM:SS / HH.MM.SS, fraction of 1-6 digits. */
static int time_ok(const unsigned char *p, Py_ssize_t n) {
    if (n == 0) return 1;
    if (n < 8) return 0;
    int h0 = p[0], h1 = p[1];
    if (!((h0 == '0' || h0 == '1') && is_digit(h1)) && !(h0 == '2' && h1 >= '0' && h1 <= '3'))
        return 0;
    if (p[2] != '.' && p[2] != ':') return 0;
    if (!(p[3] >= '0' && p[3] <= '5' && is_digit(p[4]))) return 0;
    if (p[5] != '.' && p[5] != ':') return 0;
    if (!((p[6] >= '0' && p[6] <= '5' && is_digit(p[7])) || (p[6] == '6' && p[7] == '0')))
        return 0;
    if (n == 8) return 1;
    if (n < 10 || n > 15 || (p[8] != '.' && p[8] != ':')) return 0;
    for (Py_ssize_t i = 9; i < n; i++) if (!is_digit(p[i])) return 0;
    return 1;
}

/* The operation columns the compiled path makes (OPERATION_COLUMNS without source and
 * position, which the caller takes from the input by row), then `row` and `first`. */
enum {
    O_CORREL, O_KIND, O_REPORT, O_ACT_INDEX, O_REC, O_UNREC, O_DISC, O_APPL_NAME,
    O_APPL_TYPE, O_DESC, O_OP_INDEX, O_OP_TYPE, O_OPERATION, O_DATE, O_TIME, O_QMGR, O_QUEUE,
    O_RESOLVED, O_REMOTE_Q, O_REMOTE_QMGR, O_TOPIC, O_CHANNEL, O_CHANNEL_TYPE, O_XMITQ,
    O_FEEDBACK, O_MSG_ID, O_EMB_ID, O_HAS_EMB, O_F_REC, O_F_UNREC, O_F_DISC, O_ROW, O_FIRST,
    N_OUT
};
static const int OUT_KIND[N_OUT] = {
    C_STR, C_STR, C_STR, C_I32, C_I32, C_I32, C_I32, C_STR, C_I32, C_STR, C_I32, C_I32,
    C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_I32, C_STR,
    C_I32, C_STR, C_STR, C_BOOL, C_I32, C_I32, C_I32, C_I32, C_BOOL};

static const char *const OPERATION_NAME[] = {
    "Unknown", "Browse", "Discard", "Get", "Put", "PutReply", "PutReport", "Receive", "Send",
    "Transform", "Publish", "ExcludedPublish", "DiscardedPublish"};

static int put_int(Col *c, int64_t v) {  /* an int32 column: a value past its range is null */
    if (v < INT32_MIN || v > INT32_MAX) return col_null(c);
    return col_i32(c, (int32_t)v);
}

static int put_counters(Col *out, const Num n[3]) {
    if (!n[0].set) {
        return col_null(&out[0]) < 0 || col_null(&out[1]) < 0 || col_null(&out[2]) < 0 ? -1 : 0;
    }
    return put_int(&out[0], n[0].v) < 0 || put_int(&out[1], n[1].set ? n[1].v : 0) < 0
           || put_int(&out[2], n[2].set ? n[2].v : 0) < 0 ? -1 : 0;
}

static int put_id(Col *c, const Id *id) {
    static const unsigned char zero[24] = {0};
    if (id->kind == ID_NONE) return col_null(c);
    if (id->kind == ID_ZERO) return col_hex(c, zero, 24);
    return col_hex(c, id->p, id->len);
}

typedef struct {
    int has_md;
    int32_t msg_type, encoding, ccsid;
    const unsigned char *msg_id, *correl_id;
    char format[9];
} MD;

/* An ASCII MQMD (`pcf.mqmd.unpack`): 1 read, 0 not one this path reads. */
static int md_of(const unsigned char *p, Py_ssize_t n, MD *md) {
    if (n < 324 || memcmp(p, "MD  ", 4) != 0) return 0;
    int32_t v = rd32(p + 4, 1);
    int little = v == 1 || v == 2;
    if (!little) {
        v = rd32(p + 4, 0);
        if (v != 1 && v != 2) return 0;
    }
    if (v == 2 && n < 364) return 0;
    md->has_md = 1;
    md->msg_type = rd32(p + 12, little);
    md->encoding = rd32(p + 24, little);
    md->ccsid = rd32(p + 28, little);
    Py_ssize_t f = stripped(p + 32, 8);
    for (Py_ssize_t i = 0; i < 8; i++) md->format[i] = i < f ? (char)p[32 + i] : 0;
    md->format[8] = 0;
    md->msg_id = p + 48;
    md->correl_id = p + 72;
    return 1;
}

static const unsigned char *const KIND_TEXT[] = {
    (const unsigned char *)"report", (const unsigned char *)"reply",
    (const unsigned char *)"trace-route message"};

/* One message into the columns: 1 taken (its rows added), 0 not taken (nothing added), -1
 * failed (exception set). */
static int one_message(const MD *md, const unsigned char *data, Py_ssize_t n, Scratch *s,
                       Col *out, int32_t row) {
    int little;
    long ccsid;
    int eph;
    if (md->has_md) {
        if (strcmp(md->format, "MQADMIN") && strcmp(md->format, "MQEVENT")
            && strcmp(md->format, "MQPCF") && strcmp(md->format, "MQHEPCF"))
            return 0;  /* a dead-letter header, or not PCF: the Python path */
        int kind = md->encoding & 0x0F;
        if (kind != 1 && kind != 2) return 0;
        little = kind == 2;
        ccsid = md->ccsid ? md->ccsid : 1208;
        eph = !strcmp(md->format, "MQHEPCF") || (n >= 4 && !memcmp(data, "EPH ", 4))
              || (n >= 4 && !memcmp(data, "\xc5\xd7\xc8\x40", 4));
    } else {
        ccsid = 1208;
        eph = n >= 4 && (!memcmp(data, "EPH ", 4) || !memcmp(data, "\xc5\xd7\xc8\x40", 4));
        if (n < 8) return 0;
        int32_t want = eph ? 1 : 36;
        if (rd32(data + 4, 1) == want) little = 1;
        else if (rd32(data + 4, 0) == want) little = 0;
        else return 0;
    }
    Py_ssize_t start, end, head;
    if (eph) {
        if (n < 68 || memcmp(data, "EPH ", 4)) return 0;  /* EBCDIC MQEPH: the Python path */
        int32_t length = rd32(data + 8, little);
        if (length < 68 || length > n || (length & 3)) return 0;
        /* the MQEPH Format must be text in the message's CCSID */
        if (ccsid == 1208) { if (!utf8_ok(data + 20, 8)) return 0; }
        else if (ccsid != 819 && !(ccsid == 367 && ascii(data + 20, 8))) return 0;
        head = 32;
        start = 68;
        end = length;
    } else {
        head = 0;
        start = 36;
        end = n;
    }
    if (end - head < 36) return 0;
    int32_t type = rd32(data + head, little), cfh_length = rd32(data + head + 4, little);
    int32_t command = rd32(data + head + 12, little), count = rd32(data + head + 32, little);
    if (cfh_length != 36 || count < 0) return 0;
    int kind;
    if (type == CFT_REPORT && command == CMD_ACTIVITY) kind = 0;
    else if (type == CFT_TRACE_ROUTE && command == CMD_TRACE_ROUTE)
        kind = md->has_md && md->msg_type == MT_REPLY ? 1 : 2;
    else return 0;  /* another stage's message: the Python path tries them in turn */
    Py_ssize_t o = start;
    if (check(data, end, little, &o, count, 0) < 0) return 0;
    if (eph && o != end) return 0;

    Msg m = {data, little};
    s->n_ops = s->n_acts = 0;
    Num final[3];
    memset(final, 0, sizeof final);
    o = start;
    for (int32_t k = 0; k < count; k++) {
        int32_t typ = rd32(data + o, little), pid = rd32(data + o + 8, little);
        if (typ == T_GROUP && pid == ACTIVITY) {
            if (activity_of(&m, o, s) < 0) return -1;
        } else if (typ == T_GROUP && pid == TRACE_ROUTE) {
            counters_of(&m, o, final);
        }
        o = after(&m, o);
    }
    /* everything that reaches a column must be text this path makes */
    for (Py_ssize_t a = 0; a < s->n_acts; a++) {
        if (!text_ok(&s->acts[a].appl_name, ccsid) || !text_ok(&s->acts[a].desc, ccsid))
            return 0;
    }
    for (Py_ssize_t i = 0; i < s->n_ops; i++) {
        Op *op = &s->ops[i];
        for (int t = 0; t < N_TEXT; t++) if (!text_ok(&op->text[t], ccsid)) return 0;
        for (int t = S_DATE; t <= S_TIME; t++) {
            Text *x = &op->text[t];
            if (x->set && !ascii(x->p, stripped(x->p, x->len))) return 0;
        }
    }
    /* the key: the MQMD's (CorrelId; a trace-route message's MsgId), else the first
     * operation's non-zero original MsgId (its embedded MQMD's, else its MQMD's) */
    const unsigned char *key = NULL;
    Py_ssize_t key_len = 0;
    if (md->has_md) {
        key = kind == 2 ? md->msg_id : md->correl_id;
        key_len = 24;
    } else {
        for (Py_ssize_t i = 0; i < s->n_ops && key == NULL; i++) {
            const Id *id = s->ops[i].emb.kind != ID_NONE ? &s->ops[i].emb : &s->ops[i].md;
            if (id->kind == ID_BYTES) {
                for (int32_t b = 0; b < id->len; b++) {
                    if (id->p[b]) { key = id->p; key_len = id->len; break; }
                }
            }
        }
    }
    Py_ssize_t first_row = out[0].n;
    for (Py_ssize_t a = 0; a < s->n_acts; a++) {
        const Act *act = &s->acts[a];
        for (Py_ssize_t j = 0; j < act->n_ops; j++) {
            const Op *op = &s->ops[act->first_op + j];
            int bad = 0;
            bad |= key ? col_hex(&out[O_CORREL], key, key_len) : col_str(&out[O_CORREL], "", 0);
            bad |= col_str(&out[O_KIND], (const char *)KIND_TEXT[kind],
                           (Py_ssize_t)strlen((const char *)KIND_TEXT[kind]));
            bad |= md->has_md ? col_hex(&out[O_REPORT], md->msg_id, 24)
                              : col_null(&out[O_REPORT]);
            bad |= col_i32(&out[O_ACT_INDEX], (int32_t)a);
            bad |= put_counters(&out[O_REC], act->counters);
            bad |= act->appl_name.set ? put_text(&out[O_APPL_NAME], &act->appl_name, ccsid)
                                      : col_str(&out[O_APPL_NAME], "", 0);
            bad |= act->appl_type.set ? col_i32(&out[O_APPL_TYPE], (int32_t)act->appl_type.v)
                                      : col_null(&out[O_APPL_TYPE]);
            bad |= act->desc.set ? put_text(&out[O_DESC], &act->desc, ccsid)
                                 : col_str(&out[O_DESC], "", 0);
            bad |= col_i32(&out[O_OP_INDEX], (int32_t)j);
            int32_t t = op->num[I_TYPE].set ? (int32_t)op->num[I_TYPE].v : 0;
            bad |= col_i32(&out[O_OP_TYPE], t);
            if (t >= 0 && t <= 12) {
                bad |= col_str(&out[O_OPERATION], OPERATION_NAME[t],
                               (Py_ssize_t)strlen(OPERATION_NAME[t]));
            } else {
                char name[32];
                int len = snprintf(name, sizeof name, "Operation(%d)", (int)t);
                bad |= col_str(&out[O_OPERATION], name, len);
            }
            /* date and time: as read, or '' when absent; null when not a date/time */
            for (int x = S_DATE; x <= S_TIME; x++) {
                Col *c = &out[x == S_DATE ? O_DATE : O_TIME];
                const Text *v = &op->text[x];
                if (!v->set) { bad |= col_str(c, "", 0); continue; }
                Py_ssize_t len = stripped(v->p, v->len);
                if (x == S_DATE ? date_ok(v->p, len) : time_ok(v->p, len))
                    bad |= col_str(c, (const char *)v->p, len);
                else
                    bad |= col_null(c);
            }
            static const int TEXT_COLUMN[N_TEXT] = {
                -1, -1, O_QMGR, O_QUEUE, O_RESOLVED, O_REMOTE_Q, O_REMOTE_QMGR, O_TOPIC,
                O_CHANNEL, O_XMITQ};
            for (int x = S_QMGR; x < N_TEXT; x++) {
                Col *c = &out[TEXT_COLUMN[x]];
                if (op->text[x].set) bad |= put_text(c, &op->text[x], ccsid);
                else if (x == S_QMGR) bad |= col_str(c, "", 0);
                else bad |= col_null(c);
            }
            bad |= op->num[I_CHANNEL_TYPE].set
                   ? col_i32(&out[O_CHANNEL_TYPE], (int32_t)op->num[I_CHANNEL_TYPE].v)
                   : col_null(&out[O_CHANNEL_TYPE]);
            bad |= op->num[I_FEEDBACK].set
                   ? col_i32(&out[O_FEEDBACK], (int32_t)op->num[I_FEEDBACK].v)
                   : col_null(&out[O_FEEDBACK]);
            bad |= put_id(&out[O_MSG_ID], &op->md);
            bad |= put_id(&out[O_EMB_ID], &op->emb);
            bad |= col_bool(&out[O_HAS_EMB], op->emb.kind != ID_NONE);
            bad |= put_counters(&out[O_F_REC], final);
            bad |= col_i32(&out[O_ROW], row);
            bad |= col_bool(&out[O_FIRST], out[O_FIRST].n == first_row);
            if (bad) return -1;
        }
    }
    return 1;
}

static void cols_free(Col *cols, int n) {
    for (int i = 0; i < n; i++) col_free(&cols[i]);
}

static PyObject *cols_result(Col *cols, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = col_result(&cols[i]);
        if (!c) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, c);
    }
    return list;
}

/* operations(md, data, error) -> (columns, python_rows): see the top of this file. Each
 * argument is a binary/string array as (validity, offsets, data, offset, length, wide). */
static PyObject *py_operations(PyObject *self, PyObject *args) {
    PyObject *md_t, *data_t, *err_t;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOO", &md_t, &data_t, &err_t)) return NULL;
    Bin mds, datas, errs;
    if (bin_get(md_t, &mds) < 0) return NULL;
    if (bin_get(data_t, &datas) < 0) { bin_release(&mds); return NULL; }
    if (bin_get(err_t, &errs) < 0) { bin_release(&mds); bin_release(&datas); return NULL; }
    PyObject *result = NULL;
    Col out[N_OUT];
    memset(out, 0, sizeof out);
    Col rest;
    memset(&rest, 0, sizeof rest);
    Scratch s;
    memset(&s, 0, sizeof s);
    Py_ssize_t n = datas.length;
    if (mds.length != n || errs.length != n) {
        PyErr_SetString(PyExc_ValueError, "columns of different lengths");
        goto done;
    }
    for (int i = 0; i < N_OUT; i++) if (col_init(&out[i], OUT_KIND[i]) < 0) goto done;
    if (col_init(&rest, C_I32) < 0) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *p, *d;
        Py_ssize_t len, dlen;
        int taken = 0;
        int e = bin_at(&errs, i, &p, &len);
        int has_data = bin_at(&datas, i, &d, &dlen);
        int has_md = bin_at(&mds, i, &p, &len);
        MD md;
        memset(&md, 0, sizeof md);
        if (e == 0 && has_data == 1 && dlen > 0 && has_md >= 0
            && (has_md == 0 || md_of(p, len, &md))) {
            Py_ssize_t mark = out[0].n;
            taken = one_message(&md, d, dlen, &s, out, (int32_t)i);
            if (taken < 0) goto done;
            if (!taken) for (int c = 0; c < N_OUT; c++) col_truncate(&out[c], mark);
        }
        if (!taken && col_i32(&rest, (int32_t)i) < 0) goto done;
    }
    PyObject *columns = cols_result(out, N_OUT);
    PyObject *python = columns ? col_result(&rest) : NULL;
    if (columns && python) result = Py_BuildValue("(NN)", columns, python);
    else { Py_XDECREF(columns); Py_XDECREF(python); }
done:
    cols_free(out, N_OUT);
    col_free(&rest);
    free(s.ops);
    free(s.acts);
    bin_release(&mds);
    bin_release(&datas);
    bin_release(&errs);
    return result;
}

/* ---- routes of the common chain ---------------------------------------------------------- */

/* An input column: a string/binary array (32- or 64-bit offsets), an int32/int64 array or a
 * boolean array, from (kind, validity, values, data, offset, length). */
enum { IN_STR, IN_I32, IN_I64, IN_BOOL };
typedef struct {
    int kind;
    Py_buffer valid, values, data;
    int has_valid, has_data, wide;
    Py_ssize_t offset, length;
} In;

static void in_release(In *c) {
    if (c->has_valid) PyBuffer_Release(&c->valid);
    if (c->values.obj) PyBuffer_Release(&c->values);
    if (c->has_data) PyBuffer_Release(&c->data);
    memset(c, 0, sizeof *c);
}

static int in_get(PyObject *t, In *c) {
    memset(c, 0, sizeof *c);
    PyObject *valid, *values, *data;
    if (!PyArg_ParseTuple(t, "iOOOnn", &c->kind, &valid, &values, &data, &c->offset,
                          &c->length))
        return -1;
    c->wide = c->kind == IN_STR + 16;
    if (c->wide) c->kind = IN_STR;
    if (valid != Py_None) {
        if (PyObject_GetBuffer(valid, &c->valid, PyBUF_SIMPLE) < 0) return -1;
        c->has_valid = 1;
    }
    if (PyObject_GetBuffer(values, &c->values, PyBUF_SIMPLE) < 0) { in_release(c); return -1; }
    if (data != Py_None) {
        if (PyObject_GetBuffer(data, &c->data, PyBUF_SIMPLE) < 0) { in_release(c); return -1; }
        c->has_data = 1;
    }
    Py_ssize_t end = c->offset + c->length, need;
    switch (c->kind) {
    case IN_STR: need = (end + 1) * (c->wide ? 8 : 4); break;
    case IN_I32: need = end * 4; break;
    case IN_I64: need = end * 8; break;
    case IN_BOOL: need = (end + 7) / 8; break;
    default: need = -1;
    }
    if (need < 0 || c->offset < 0 || c->length < 0 || need > c->values.len
        || (c->has_valid && (end + 7) / 8 > c->valid.len)) {
        in_release(c);
        PyErr_SetString(PyExc_ValueError, "column buffers too short");
        return -1;
    }
    if (c->kind == IN_STR) {  /* every offset in order and inside the data */
        int64_t prev = 0;
        for (Py_ssize_t i = c->offset; i <= end; i++) {
            int64_t v = c->wide ? ((const int64_t *)c->values.buf)[i]
                                : ((const int32_t *)c->values.buf)[i];
            if (v < 0 || (i > c->offset && v < prev) || (v > 0 && (!c->has_data
                                                                    || v > c->data.len))) {
                in_release(c);
                PyErr_SetString(PyExc_ValueError, "string offsets out of order");
                return -1;
            }
            prev = v;
        }
    }
    return 0;
}

static inline int in_null(const In *c, Py_ssize_t i) {
    return c->has_valid && !get_bit(c->valid.buf, c->offset + i);
}

typedef struct { const char *p; Py_ssize_t len; int null; } S;

static inline S in_str(const In *c, Py_ssize_t i) {
    S s = {"", 0, 1};
    if (in_null(c, i)) return s;
    Py_ssize_t k = c->offset + i;
    int64_t lo = c->wide ? ((const int64_t *)c->values.buf)[k] : ((const int32_t *)c->values.buf)[k];
    int64_t hi = c->wide ? ((const int64_t *)c->values.buf)[k + 1]
                         : ((const int32_t *)c->values.buf)[k + 1];
    s.p = hi > lo ? (const char *)c->data.buf + lo : "";
    s.len = (Py_ssize_t)(hi - lo);
    s.null = 0;
    return s;
}

typedef struct { int64_t v; int null; } N;

static inline N in_int(const In *c, Py_ssize_t i) {
    N n = {0, 1};
    if (in_null(c, i)) return n;
    Py_ssize_t k = c->offset + i;
    n.v = c->kind == IN_I64 ? ((const int64_t *)c->values.buf)[k]
        : c->kind == IN_I32 ? ((const int32_t *)c->values.buf)[k]
        : get_bit(c->values.buf, k);
    n.null = 0;
    return n;
}

static inline int s_eq(S a, S b) {
    return a.null == b.null && a.len == b.len && (a.len == 0 || !memcmp(a.p, b.p, a.len));
}

/* `a or ""`: text equality as Python compares the values after `or ""` */
static inline int s_eq_blank(S a, S b) {
    return a.len == b.len && (a.len == 0 || !memcmp(a.p, b.p, a.len));
}

static inline int s_cmp(S a, S b) {  /* code point order of valid UTF-8 = byte order */
    Py_ssize_t n = a.len < b.len ? a.len : b.len;
    int r = n ? memcmp(a.p, b.p, n) : 0;
    return r ? r : (a.len < b.len ? -1 : a.len > b.len);
}

static inline int n_eq(N a, N b) { return a.null == b.null && (a.null || a.v == b.v); }

/* The columns routes() reads, in this order (reports.ROUTES_READ without the MQMD columns). */
enum {
    R_CORREL, R_KIND, R_REPORT, R_SOURCE, R_POSITION, R_ACT_INDEX, R_REC, R_UNREC, R_DISC,
    R_APPL_NAME, R_APPL_TYPE, R_DESC, R_OP_INDEX, R_OP_TYPE, R_DATE, R_TIME, R_QMGR, R_QUEUE,
    R_RESOLVED, R_REMOTE_Q, R_REMOTE_QMGR, R_TOPIC, R_CHANNEL, R_CHANNEL_TYPE, R_XMITQ,
    R_FEEDBACK, R_HAS_EMB, R_F_REC, R_F_UNREC, R_F_DISC, N_IN
};

enum { OPER_BROWSE = 1, OPER_DISCARD = 2, OPER_GET = 3, OPER_PUT = 4, OPER_PUT_REPLY = 5,
       OPER_PUT_REPORT = 6, OPER_RECEIVE = 7, OPER_SEND = 8, OPER_PUBLISH = 10,
       OPER_EXCLUDED_PUBLISH = 11, OPER_DISCARDED_PUBLISH = 12,
       FB_NONE = 0, FB_NOT_DELIVERED = 284, FB_MAX_ACTIVITIES = 282, FB_NOT_FORWARDED = 283,
       FB_EXPIRATION = 258 };

/* The output columns: ROUTE_COLUMNS, then HOP_COLUMNS. */
enum {
    W_CORREL, W_VERDICT, W_COMPLETE, W_FEEDBACK, W_LAST_QMGR, W_LAST_QUEUE, W_LAST_CHANNEL,
    W_NEXT_QMGR, W_ACTIVITIES, W_HOPS, W_GAPS, W_MISSING, W_BRANCHES, W_FIRST, W_LAST,
    W_RECORDS, N_ROUTE_OUT
};
static const int ROUTE_KIND[N_ROUTE_OUT] = {
    C_STR, C_STR, C_BOOL, C_I32, C_STR, C_STR, C_STR, C_STR, C_I32, C_I32, C_I32, C_I32,
    C_I32, C_STR, C_STR, C_I32};
enum {
    H_CORREL, H_SEQ, H_KIND, H_SRC, H_DST, H_SRC_QMGR, H_DST_QMGR, H_CHANNEL, H_QUEUE, H_TIME,
    H_FEEDBACK, H_BRANCH, N_HOP_OUT
};
static const int HOP_KIND[N_HOP_OUT] = {
    C_STR, C_I32, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_STR, C_I32, C_I32};

typedef struct {
    In *in;
    Py_ssize_t *order;    /* the group's rows, sorted as records_of_columns sorts them */
    Py_ssize_t *tmp;
    Py_ssize_t cap;
} Group;

/* records_of_columns' order: (source or "", position or 0, report or "", activity index,
 * operation index), then the input order. */
static int row_cmp(const In *in, Py_ssize_t a, Py_ssize_t b) {
    int r = s_cmp(in_str(&in[R_SOURCE], a), in_str(&in[R_SOURCE], b));
    if (r) return r;
    N pa = in_int(&in[R_POSITION], a), pb = in_int(&in[R_POSITION], b);
    int64_t va = pa.null ? 0 : pa.v, vb = pb.null ? 0 : pb.v;
    if (va != vb) return va < vb ? -1 : 1;
    r = s_cmp(in_str(&in[R_REPORT], a), in_str(&in[R_REPORT], b));
    if (r) return r;
    for (int c = R_ACT_INDEX; c <= R_OP_INDEX; c += R_OP_INDEX - R_ACT_INDEX) {
        int64_t x = in_int(&in[c], a).v, y = in_int(&in[c], b).v;
        if (x != y) return x < y ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

static void merge_sort(const In *in, Py_ssize_t *v, Py_ssize_t *tmp, Py_ssize_t n) {
    if (n < 2) return;
    if (n <= 16) {  /* insertion sort: stable */
        for (Py_ssize_t i = 1; i < n; i++) {
            Py_ssize_t x = v[i], j = i;
            while (j > 0 && row_cmp(in, v[j - 1], x) > 0) { v[j] = v[j - 1]; j--; }
            v[j] = x;
        }
        return;
    }
    Py_ssize_t h = n / 2;
    merge_sort(in, v, tmp, h);
    merge_sort(in, v + h, tmp, n - h);
    Py_ssize_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = row_cmp(in, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

typedef struct {
    Py_ssize_t first, n;  /* its rows: order[first .. first+n) (one operation each) */
    int64_t c[3];         /* counters (recorded, unrecorded, discontinuity) */
} Activity;

#define MAX_ACTIVITIES 512

/* Do two activities (rows of their operations) have the same identity (ordering's
 * `_identity`: appl name, type, description and every compared Operation field)? */
static int same_activity(const In *in, const Py_ssize_t *order, const Activity *a,
                         const Activity *b) {
    if (a->n != b->n) return 0;
    Py_ssize_t x = order[a->first], y = order[b->first];
    if (!s_eq_blank(in_str(&in[R_APPL_NAME], x), in_str(&in[R_APPL_NAME], y))
        || !n_eq(in_int(&in[R_APPL_TYPE], x), in_int(&in[R_APPL_TYPE], y))
        || !s_eq_blank(in_str(&in[R_DESC], x), in_str(&in[R_DESC], y)))
        return 0;
    for (Py_ssize_t k = 0; k < a->n; k++) {
        x = order[a->first + k];
        y = order[b->first + k];
        if (!n_eq(in_int(&in[R_OP_TYPE], x), in_int(&in[R_OP_TYPE], y))) return 0;
        for (int c = R_DATE; c <= R_QMGR; c++)
            if (!s_eq_blank(in_str(&in[c], x), in_str(&in[c], y))) return 0;
        for (int c = R_QUEUE; c <= R_XMITQ; c++) {
            if (c == R_CHANNEL_TYPE) {
                if (!n_eq(in_int(&in[c], x), in_int(&in[c], y))) return 0;
            } else if (!s_eq(in_str(&in[c], x), in_str(&in[c], y))) {
                return 0;
            }
        }
        if (!n_eq(in_int(&in[R_FEEDBACK], x), in_int(&in[R_FEEDBACK], y))) return 0;
    }
    return 1;
}

static inline int is_put(int64_t t) { return t == OPER_PUT || t == OPER_PUT_REPLY || t == OPER_PUT_REPORT; }
static inline int is_get(int64_t t) { return t == OPER_GET || t == OPER_BROWSE; }

/* An Operation's timestamp ('date time', '.' in the time made ':', blanks stripped) into
 * buf; its length. Dates and times here hold only digits and . : - (checked). */
static Py_ssize_t stamp(const In *in, Py_ssize_t row, char *buf) {
    S d = in_str(&in[R_DATE], row), t = in_str(&in[R_TIME], row);
    Py_ssize_t n = 0;
    if (d.len) { memcpy(buf, d.p, d.len); n = d.len; }
    if (d.len && t.len) buf[n++] = ' ';
    for (Py_ssize_t i = 0; i < t.len; i++) buf[n++] = t.p[i] == '.' ? ':' : t.p[i];
    return n;
}

static int stamp_ok(S s) {
    if (s.len > 64) return 0;
    for (Py_ssize_t i = 0; i < s.len; i++) {
        char c = s.p[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == ':' || c == '-')) return 0;
    }
    return 1;
}

static int put_s(Col *c, S s) { return s.null ? col_null(c) : col_str(c, s.p, s.len); }
static int put_n(Col *c, N n) { return n.null ? col_null(c) : put_int(c, n.v); }
static int put_lit(Col *c, const char *s) { return col_str(c, s, (Py_ssize_t)strlen(s)); }
static inline S or_blank(S s) { if (s.null) { s.null = 0; s.len = 0; s.p = ""; } return s; }
/* Python's `a or b` on texts */
static inline S s_or(S a, S b) { return a.null || a.len == 0 ? b : a; }

/* One hop row (a gap when row < 0). -1: out of memory. */
static int put_hop(Col *h, S key, int32_t seq, const In *in, Py_ssize_t row) {
    int bad = put_s(&h[H_CORREL], key) | col_i32(&h[H_SEQ], seq);
    if (row < 0) {
        bad |= put_lit(&h[H_KIND], "gap") | put_lit(&h[H_SRC], "?") | put_lit(&h[H_DST], "?");
        for (int c = H_SRC_QMGR; c <= H_FEEDBACK; c++) bad |= col_null(&h[c]);
        return bad | col_i32(&h[H_BRANCH], 0);
    }
    char time[160];
    Py_ssize_t tlen = stamp(in, row, time);
    S q = or_blank(in_str(&in[R_QMGR], row));
    int64_t type = in_int(&in[R_OP_TYPE], row).v;
    if (type == OPER_SEND) {
        S remote = in_str(&in[R_REMOTE_QMGR], row);
        S dst = remote.null || remote.len == 0 ? (S){"?", 1, 0} : remote;
        bad |= put_lit(&h[H_KIND], "send") | put_s(&h[H_SRC], q) | put_s(&h[H_DST], dst)
               | put_s(&h[H_SRC_QMGR], q) | put_s(&h[H_DST_QMGR], remote)
               | put_s(&h[H_CHANNEL], in_str(&in[R_CHANNEL], row))
               | put_s(&h[H_QUEUE], in_str(&in[R_XMITQ], row));
    } else {
        S queue;
        const char *kind, *suffix = NULL;
        if (is_put(type)) {
            kind = "put";
            queue = s_or(s_or(in_str(&in[R_RESOLVED], row), in_str(&in[R_QUEUE], row)),
                         in_str(&in[R_TOPIC], row));
            if (queue.null || queue.len == 0) queue = (S){"?", 1, 0};
        } else {
            kind = "discard";
            suffix = "(discarded)";
            queue = in_str(&in[R_QUEUE], row);
        }
        S dst_tail = suffix ? (S){suffix, (Py_ssize_t)strlen(suffix), 0} : queue;
        Col *dst = &h[H_DST];
        if (col_room(dst) < 0 || col_data(dst, q.len + 1 + dst_tail.len) < 0) return -1;
        memcpy(dst->data + dst->dlen, q.p, q.len);
        dst->data[dst->dlen + q.len] = '/';
        memcpy(dst->data + dst->dlen + q.len + 1, dst_tail.p, dst_tail.len);
        dst->dlen += q.len + 1 + dst_tail.len;
        set_bit(dst->valid, dst->n);
        ((int32_t *)dst->values)[++dst->n] = (int32_t)dst->dlen;
        bad |= put_lit(&h[H_KIND], kind) | put_s(&h[H_SRC], q) | put_s(&h[H_SRC_QMGR], q)
               | put_s(&h[H_DST_QMGR], q) | col_null(&h[H_CHANNEL]) | put_s(&h[H_QUEUE], queue);
    }
    bad |= col_str(&h[H_TIME], time, tlen) | put_n(&h[H_FEEDBACK], in_int(&in[R_FEEDBACK], row))
           | col_i32(&h[H_BRANCH], 0);
    return bad;
}

/* The route of the group rows [lo, hi) into the outputs: 1 made, 0 not one chain (nothing
 * added: the Python ordering makes it), -1 out of memory. */
static int chain(Group *g, Py_ssize_t lo, Py_ssize_t hi, Col *r, Col *h, Activity **acts_p,
                 Py_ssize_t *acts_cap, Py_ssize_t **entries_p, Py_ssize_t *entries_cap) {
    const In *in = g->in;
    Py_ssize_t n = hi - lo;
    if (grow((void **)&g->order, &g->cap, n, sizeof(Py_ssize_t)) < 0) return -1;
    g->tmp = realloc(g->tmp, (size_t)g->cap * sizeof(Py_ssize_t));
    if (!g->tmp) { PyErr_NoMemory(); return -1; }
    S key = in_str(&in[R_CORREL], lo);
    if (key.null || (key.len & 1)) return 0;
    for (Py_ssize_t i = 0; i < key.len; i++) {
        char c = key.p[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
    }
    int source_null = 0, source_blank = 0, report_null = 0, report_blank = 0;
    for (Py_ssize_t i = lo; i < hi; i++) {
        g->order[i - lo] = i;
        S src = in_str(&in[R_SOURCE], i), rep = in_str(&in[R_REPORT], i);
        source_null |= src.null;
        source_blank |= !src.null && src.len == 0;
        report_null |= rep.null;
        report_blank |= !rep.null && rep.len == 0;
        if (in_null(&in[R_POSITION], i) || in_null(&in[R_ACT_INDEX], i)
            || in_null(&in[R_OP_INDEX], i) || in_null(&in[R_OP_TYPE], i)
            || in_null(&in[R_KIND], i) || in_null(&in[R_HAS_EMB], i))
            return 0;
        if (!stamp_ok(in_str(&in[R_DATE], i)) || !stamp_ok(in_str(&in[R_TIME], i))) return 0;
    }
    /* null and '' sort alike but are different records: only one of them in a group */
    if ((source_null && source_blank) || (report_null && report_blank)) return 0;
    merge_sort(in, g->order, g->tmp, n);

    /* records and their activities (records_of_columns), entries (ordering._entries) */
    Activity *acts = *acts_p;
    Py_ssize_t n_acts = 0, records = 0, n_entries = 0;
    Py_ssize_t *entries = *entries_p;
    int has_final = 0;
    int64_t final[3] = {0, 0, 0};
    Py_ssize_t rec_start = 0;
    for (Py_ssize_t k = 0; k <= n; k++) {
        Py_ssize_t row = k < n ? g->order[k] : -1, first = g->order[rec_start];
        int new_record = k == n || k == 0
            || !s_eq(in_str(&in[R_SOURCE], row), in_str(&in[R_SOURCE], first))
            || in_int(&in[R_POSITION], row).v != in_int(&in[R_POSITION], first).v
            || !s_eq(in_str(&in[R_REPORT], row), in_str(&in[R_REPORT], first));
        if (!new_record) continue;
        if (k > 0) {  /* close the record [rec_start, k) */
            S kind = in_str(&in[R_KIND], first);
            int report = kind.len == 6 && !memcmp(kind.p, "report", 6);
            N f = in_int(&in[R_F_REC], first);
            int trace = !report && !f.null;  /* a reply's or trace-route message's counters */
            if (trace) {
                int64_t c[3] = {f.v, 0, 0};
                N u = in_int(&in[R_F_UNREC], first), d = in_int(&in[R_F_DISC], first);
                c[1] = u.null ? 0 : u.v;
                c[2] = d.null ? 0 : d.v;
                if (!has_final || c[0] > final[0] || (c[0] == final[0] && (c[1] > final[1]
                    || (c[1] == final[1] && c[2] >= final[2])))) {
                    memcpy(final, c, sizeof c);
                    has_final = 1;
                }
            }
            int64_t index = 0;
            for (Py_ssize_t a = rec_start; a < k; index++) {
                Py_ssize_t b = a + 1;
                int64_t ai = in_int(&in[R_ACT_INDEX], g->order[a]).v;
                while (b < k && in_int(&in[R_ACT_INDEX], g->order[b]).v == ai) b++;
                if (n_acts >= MAX_ACTIVITIES) return 0;
                if (grow((void **)acts_p, acts_cap, n_acts + 1, sizeof(Activity)) < 0) return -1;
                acts = *acts_p;
                Activity *act = &acts[n_acts];
                act->first = a;
                act->n = b - a;
                Py_ssize_t head = g->order[a];
                N rec = in_int(&in[R_REC], head);
                if (!rec.null) {
                    N u = in_int(&in[R_UNREC], head), d = in_int(&in[R_DISC], head);
                    act->c[0] = rec.v;
                    act->c[1] = u.null ? 0 : u.v;
                    act->c[2] = d.null ? 0 : d.v;
                    if (!has_final || act->c[0] > final[0] || (act->c[0] == final[0]
                        && (act->c[1] > final[1] || (act->c[1] == final[1]
                                                     && act->c[2] >= final[2])))) {
                        memcpy(final, act->c, sizeof act->c);
                        has_final = 1;
                    }
                } else if (trace) {
                    act->c[0] = index + 1;  /* accumulated in order, before any reply */
                    act->c[1] = act->c[2] = 0;
                } else {
                    return 0;  /* an activity without counters: ordered by chaining */
                }
                /* the same activity seen before (same count and identity): one entry */
                int dup = 0;
                for (Py_ssize_t e = 0; e < n_entries; e++) {
                    Activity *other = &acts[entries[e]];
                    if (other->c[0] != act->c[0]) continue;
                    if (!same_activity(in, g->order, other, act))
                        return 0;  /* two activities at one count: not one chain */
                    dup = 1;
                    break;
                }
                if (!dup) {
                    if (grow((void **)entries_p, entries_cap, n_entries + 1,
                             sizeof(Py_ssize_t)) < 0)
                        return -1;
                    entries = *entries_p;
                    entries[n_entries++] = n_acts;
                }
                n_acts++;
                a = b;
            }
            records++;
        }
        rec_start = k;
    }
    if (n_entries == 0) return 0;
    /* the chain: entries by recorded count (each count one entry) */
    for (Py_ssize_t i = 1; i < n_entries; i++) {
        Py_ssize_t x = entries[i], j = i;
        while (j > 0 && acts[entries[j - 1]].c[0] > acts[x].c[0]) { entries[j] = entries[j - 1]; j--; }
        entries[j] = x;
    }

    /* the route: steps (gaps and activities) and route_values' walk */
    int32_t seq = 0, activities = 0, gaps = 0;
    int64_t missing = 0;
    char first_t[160], last_t[160], t[160];
    Py_ssize_t first_len = -1, last_len = -1;
    int64_t before[3] = {0, 0, 0};
    for (Py_ssize_t e = 0; e < n_entries; e++) {
        const Activity *act = &acts[entries[e]];
        int64_t m = act->c[0] - before[0] - 1;
        int64_t u = act->c[1] - before[1], d = act->c[2] - before[2];
        if (u < 0) u = 0;
        if (d < 0) d = 0;
        if (m > 0 || u || d) {  /* a gap the counters show */
            gaps++;
            missing += m > 0 ? m : 0;
            if (put_hop(h, key, ++seq, in, -1)) return -1;
        }
        memcpy(before, act->c, sizeof before);
        activities++;
        for (Py_ssize_t k = 0; k < act->n; k++) {
            Py_ssize_t row = g->order[act->first + k];
            Py_ssize_t tl = stamp(in, row, t);
            if (tl) {
                if (first_len < 0 || s_cmp((S){t, tl, 0}, (S){first_t, first_len, 0}) < 0) {
                    memcpy(first_t, t, tl);
                    first_len = tl;
                }
                if (last_len < 0 || s_cmp((S){t, tl, 0}, (S){last_t, last_len, 0}) > 0) {
                    memcpy(last_t, t, tl);
                    last_len = tl;
                }
            }
            int64_t type = in_int(&in[R_OP_TYPE], row).v;
            if (type == OPER_SEND || is_put(type) || type == OPER_DISCARD)
                if (put_hop(h, key, ++seq, in, row)) return -1;
        }
    }
    int ends_in_gap = 0;
    if (has_final && final[0] > before[0]) {  /* recorded activities the data lacks */
        gaps++;
        missing += final[0] - before[0];
        ends_in_gap = 1;
        if (put_hop(h, key, ++seq, in, -1)) return -1;
    }

    /* the outcome (verdict.outcome_of) of the last activity's last operation; a
     * publishing activity's (a put to a topic: publication_outcome) is the Python one's */
    const Activity *last = &acts[entries[n_entries - 1]];
    if (!ends_in_gap) {
        for (Py_ssize_t k = 0; k < last->n; k++) {
            Py_ssize_t row = g->order[last->first + k];
            if (is_put(in_int(&in[R_OP_TYPE], row).v) && !in_null(&in[R_TOPIC], row))
                return 0;
        }
    }
    Py_ssize_t op = g->order[last->first + last->n - 1];
    int64_t type = in_int(&in[R_OP_TYPE], op).v;
    N feedback = in_int(&in[R_FEEDBACK], op);
    S q = or_blank(in_str(&in[R_QMGR], op)), none = {"", 0, 1};
    S queue = s_or(in_str(&in[R_RESOLVED], op), in_str(&in[R_QUEUE], op));
    S remote_qmgr = in_str(&in[R_REMOTE_QMGR], op);
    int to_xmitq = is_put(type) && (!remote_qmgr.null || !in_null(&in[R_REMOTE_Q], op));
    S lq, lqueue, lchannel, lnext;
    if (type == OPER_SEND) {
        lq = q; lqueue = in_str(&in[R_XMITQ], op); lchannel = in_str(&in[R_CHANNEL], op);
        lnext = remote_qmgr;
    } else if (type == OPER_RECEIVE) {
        lq = q; lqueue = none; lchannel = in_str(&in[R_CHANNEL], op); lnext = none;
    } else if (to_xmitq) {
        lq = q; lqueue = queue; lchannel = none; lnext = remote_qmgr;
    } else if (type == OPER_DISCARD) {
        lq = q; lqueue = in_str(&in[R_QUEUE], op); lchannel = none; lnext = remote_qmgr;
    } else {
        lq = q.len ? q : none; lqueue = queue; lchannel = in_str(&in[R_CHANNEL], op);
        lnext = none;
    }
    const char *verdict;
    N fb = {0, 1};
    if (ends_in_gap) {
        verdict = "incomplete";
    } else if (type == OPER_DISCARD || type == OPER_DISCARDED_PUBLISH
               || type == OPER_EXCLUDED_PUBLISH) {
        verdict = feedback.null ? "discarded"
                : feedback.v == FB_NOT_DELIVERED ? "discarded_at_target"
                : feedback.v == FB_MAX_ACTIVITIES ? "max_activities"
                : feedback.v == FB_NOT_FORWARDED ? "not_forwarded"
                : feedback.v == FB_EXPIRATION ? "expired" : "discarded";
        fb = feedback;
    } else if (is_put(type)) {
        if (!feedback.null && feedback.v != FB_NONE) { verdict = "dead_lettered"; fb = feedback; }
        else if (to_xmitq) verdict = "waiting_on_xmitq";
        else verdict = "delivered";
    } else if (is_get(type) && !in_int(&in[R_HAS_EMB], op).v) {
        verdict = "delivered";
    } else if (type == OPER_PUBLISH) {
        verdict = "delivered";
    } else {
        verdict = "incomplete";
    }
    int terminal = strcmp(verdict, "waiting_on_xmitq") && strcmp(verdict, "incomplete");
    int bad = put_s(&r[W_CORREL], key) | put_lit(&r[W_VERDICT], verdict)
              | col_bool(&r[W_COMPLETE], terminal && gaps == 0) | put_n(&r[W_FEEDBACK], fb)
              | put_s(&r[W_LAST_QMGR], lq) | put_s(&r[W_LAST_QUEUE], lqueue)
              | put_s(&r[W_LAST_CHANNEL], lchannel) | put_s(&r[W_NEXT_QMGR], lnext)
              | col_i32(&r[W_ACTIVITIES], activities) | col_i32(&r[W_HOPS], seq)
              | col_i32(&r[W_GAPS], gaps) | put_int(&r[W_MISSING], missing)
              | col_i32(&r[W_BRANCHES], 0)
              | (first_len < 0 ? col_null(&r[W_FIRST]) : col_str(&r[W_FIRST], first_t, first_len))
              | (last_len < 0 ? col_null(&r[W_LAST]) : col_str(&r[W_LAST], last_t, last_len))
              | put_int(&r[W_RECORDS], records);
    return bad ? -1 : 1;
}

/* routes(columns) -> (route columns, hop columns, hop offsets, python groups): the routes of
 * the original messages in operation columns grouped by correl_id (contiguous groups), the
 * columns as (kind, validity, values, data, offset, length) in the order of enum R_*.
 * `python` is (lo, hi) row ranges of the messages left to the Python ordering, as int32
 * pairs; `first` the first row of each route made here, for the caller's order. */
static PyObject *py_routes(PyObject *self, PyObject *args) {
    PyObject *list;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &list)) return NULL;
    if (PyList_GET_SIZE(list) != N_IN) {
        PyErr_SetString(PyExc_ValueError, "routes: wrong number of columns");
        return NULL;
    }
    In in[N_IN];
    memset(in, 0, sizeof in);
    PyObject *result = NULL;
    Col r[N_ROUTE_OUT], h[N_HOP_OUT], offsets, rest, firsts;
    memset(r, 0, sizeof r);
    memset(h, 0, sizeof h);
    memset(&offsets, 0, sizeof offsets);
    memset(&rest, 0, sizeof rest);
    memset(&firsts, 0, sizeof firsts);
    Group g = {in, NULL, NULL, 0};
    Activity *acts = NULL;
    Py_ssize_t acts_cap = 0, entries_cap = 0, *entries = NULL;
    for (int i = 0; i < N_IN; i++)
        if (in_get(PyList_GET_ITEM(list, i), &in[i]) < 0) goto done;
    Py_ssize_t n = in[0].length;
    for (int i = 0; i < N_IN; i++) {
        static const int want[N_IN] = {
            IN_STR, IN_STR, IN_STR, IN_STR, IN_I64, IN_I32, IN_I32, IN_I32, IN_I32, IN_STR,
            IN_I32, IN_STR, IN_I32, IN_I32, IN_STR, IN_STR, IN_STR, IN_STR, IN_STR, IN_STR,
            IN_STR, IN_STR, IN_STR, IN_I32, IN_STR, IN_I32, IN_BOOL, IN_I32, IN_I32, IN_I32};
        if (in[i].length != n || in[i].kind != want[i]) {
            PyErr_Format(PyExc_ValueError, "routes: column %d is not as expected", i);
            goto done;
        }
    }
    for (int i = 0; i < N_ROUTE_OUT; i++) if (col_init(&r[i], ROUTE_KIND[i]) < 0) goto done;
    for (int i = 0; i < N_HOP_OUT; i++) if (col_init(&h[i], HOP_KIND[i]) < 0) goto done;
    if (col_init(&offsets, C_I32) < 0 || col_init(&rest, C_I32) < 0
        || col_init(&firsts, C_I32) < 0 || col_i32(&offsets, 0) < 0)
        goto done;
    Py_ssize_t lo = 0;
    while (lo < n) {
        S key = in_str(&in[R_CORREL], lo);
        Py_ssize_t hi = lo + 1;
        while (hi < n && s_eq(in_str(&in[R_CORREL], hi), key)) hi++;
        Py_ssize_t marks[N_HOP_OUT];
        for (int i = 0; i < N_HOP_OUT; i++) marks[i] = h[i].n;
        Py_ssize_t rmark = r[0].n;
        int made = chain(&g, lo, hi, r, h, &acts, &acts_cap, &entries, &entries_cap);
        if (made < 0) goto done;
        if (made) {
            if (col_i32(&offsets, (int32_t)h[0].n) < 0 || col_i32(&firsts, (int32_t)lo) < 0)
                goto done;
        } else {
            for (int i = 0; i < N_HOP_OUT; i++) col_truncate(&h[i], marks[i]);
            for (int i = 0; i < N_ROUTE_OUT; i++) col_truncate(&r[i], rmark);
            if (col_i32(&rest, (int32_t)lo) < 0 || col_i32(&rest, (int32_t)hi) < 0) goto done;
        }
        lo = hi;
    }
    PyObject *routes = cols_result(r, N_ROUTE_OUT);
    PyObject *hops = routes ? cols_result(h, N_HOP_OUT) : NULL;
    PyObject *offs = hops ? col_result(&offsets) : NULL;
    PyObject *first = offs ? col_result(&firsts) : NULL;
    PyObject *python = first ? col_result(&rest) : NULL;
    if (python) {
        result = Py_BuildValue("(NNNNN)", routes, hops, offs, first, python);
    } else {
        Py_XDECREF(routes);
        Py_XDECREF(hops);
        Py_XDECREF(offs);
        Py_XDECREF(first);
    }
done:
    for (int i = 0; i < N_IN; i++) in_release(&in[i]);
    cols_free(r, N_ROUTE_OUT);
    cols_free(h, N_HOP_OUT);
    col_free(&offsets);
    col_free(&rest);
    col_free(&firsts);
    free(g.order);
    free(g.tmp);
    free(acts);
    free(entries);
    return result;
}

/* constants() -> {name: value} of the MQ constants built in (compiled.py checks them). */
static PyObject *py_constants(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    return Py_BuildValue(
        "{sisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisisi}",
        "T_INT", T_INT, "T_STR", T_STR, "T_BSTR", T_BSTR, "T_GROUP", T_GROUP,
        "T_INT64", T_INT64, "ACTIVITY", ACTIVITY, "TRACE_ROUTE", TRACE_ROUTE,
        "OPERATION", OPERATION, "MESSAGE", MESSAGE, "MQMD_GROUP", MQMD_GROUP,
        "EMBEDDED_MQMD", EMBEDDED_MQMD, "MSG_ID", MSG_ID, "APPL_NAME", APPL_NAME,
        "APPL_TYPE", APPL_TYPE, "ACTIVITY_DESC", ACTIVITY_DESC, "RECORDED", RECORDED,
        "UNRECORDED", UNRECORDED, "DISCONTINUITY", DISCONTINUITY, "OP_DATE", OP_DATE,
        "OP_TIME", OP_TIME, "QMGR_NAME", QMGR_NAME, "Q_NAME", Q_NAME,
        "RESOLVED_Q", RESOLVED_Q, "REMOTE_Q", REMOTE_Q, "REMOTE_QMGR", REMOTE_QMGR,
        "TOPIC", TOPIC, "CHANNEL", CHANNEL, "XMIT_Q", XMIT_Q, "OP_TYPE", OP_TYPE,
        "CHANNEL_TYPE", CHANNEL_TYPE, "FEEDBACK", FEEDBACK, "CFT_REPORT", CFT_REPORT,
        "CMD_ACTIVITY", CMD_ACTIVITY, "CFT_TRACE_ROUTE", CFT_TRACE_ROUTE,
        "CMD_TRACE_ROUTE", CMD_TRACE_ROUTE, "MT_REPLY", MT_REPLY, "MAX_DEPTH", MAX_DEPTH);
}

static PyMethodDef methods[] = {
    {"constants", py_constants, METH_NOARGS, "constants() -> {name: value}"},
    {"routes", py_routes, METH_VARARGS,
     "routes(columns) -> (routes, hops, hop offsets, firsts, python ranges)"},
    {"operations", py_operations, METH_VARARGS,
     "operations(md, data, error) -> (columns, python_rows)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "graph.pipeline._ccolumns",
    "Optional compiled paths of the analyze job (see graph/pipeline/compiled.py).", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ccolumns(void) { return PyModule_Create(&module); }
