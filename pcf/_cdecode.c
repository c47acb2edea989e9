/* Optional compiled fast path of pcf.decoder: PCF parameter structures -> the same typed tree.
 *
 * It only handles well-formed input. Whenever anything is out of the ordinary (an unknown
 * structure Type, a length that does not fit, nesting too deep, an exception while decoding
 * text) parse() returns None and the caller runs the pure-Python decoder, which raises the
 * PCFError with its offset, path and reason. So error behaviour lives in one place.
 *
 * Tree nodes are the pcf.model dataclasses (slots=True). They are allocated with tp_alloc and
 * their slots written directly, at the offsets of the classes' member descriptors, looked up
 * once by init(): the same objects the dataclass __init__ would build, without calling it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

enum { K_INT, K_INT64, K_STR, K_BSTR, K_ILIST, K_I64LIST, K_SLIST, K_IFILT, K_SFILT, K_BFILT,
       K_GROUP, K_COUNT };

/* Field names of each class, in the order parse() fills them. */
static const char *const FIELDS[K_COUNT][5] = {
    {"parameter", "value", NULL},
    {"parameter", "value", NULL},
    {"parameter", "value", "ccsid", "width", NULL},
    {"parameter", "value", NULL},
    {"parameter", "value", NULL},
    {"parameter", "value", NULL},
    {"parameter", "value", "ccsid", "width", NULL},
    {"parameter", "operator", "value", NULL},
    {"parameter", "operator", "value", "ccsid", NULL},
    {"parameter", "operator", "value", NULL},
    {"parameter", "parameters", NULL},
};

typedef struct {
    PyTypeObject *type;
    Py_ssize_t off[4];
    int nfields;
    int untrack; /* every field an int, str, bytes or None: no cycle can pass through it */
} Kind;

static Kind kinds[K_COUNT];

/* Parameter ids and CCSIDs repeat in every message: their int objects are made once. */
#define CACHED 16384
static PyObject *cache[CACHED];

static inline PyObject *num(long v) {
    if (v >= 0 && v < CACHED) {
        PyObject *o = cache[v];
        if (o == NULL) {
            o = cache[v] = PyLong_FromLong(v);
            if (o == NULL) return NULL;
        }
        return Py_NewRef(o);
    }
    return PyLong_FromLong(v);
}
static PyObject *decode_text = NULL; /* pcf.codepages.decode_text */
static int ready = 0;

typedef struct {
    const unsigned char *buf;
    Py_ssize_t end;
    int little;
    long ccsid;     /* what CCSID 0 stands for */
    int max_depth;
} Ctx;

static inline int32_t rd32(const Ctx *c, Py_ssize_t at) {
    const unsigned char *p = c->buf + at;
    uint32_t v = c->little
        ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
        : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
    return (int32_t)v;
}

static inline int64_t rd64(const Ctx *c, Py_ssize_t at) {
    const unsigned char *p = c->buf + at;
    uint64_t v = 0;
    if (c->little) {
        for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    } else {
        for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    }
    return (int64_t)v;
}

/* A node of kind k with its fields (references stolen; NULL if any is NULL). */
static PyObject *make(int k, PyObject *a, PyObject *b, PyObject *c, PyObject *d) {
    PyObject *vals[4] = {a, b, c, d};
    Kind *kd = &kinds[k];
    int ok = 1;
    for (int i = 0; i < kd->nfields; i++) if (vals[i] == NULL) ok = 0;
    PyObject *o = ok ? kd->type->tp_alloc(kd->type, 0) : NULL;
    if (o == NULL) {
        for (int i = 0; i < kd->nfields; i++) Py_XDECREF(vals[i]);
        return NULL;
    }
    for (int i = 0; i < kd->nfields; i++) *(PyObject **)((char *)o + kd->off[i]) = vals[i];
    if (kd->untrack) PyObject_GC_UnTrack(o);
    return o;
}

/* Text of a string field, MQ padding (blanks, NULs) stripped; the raw bytes when the CCSID
 * is unknown or the bytes are not valid in it. Same results as pcf.codepages.decode_text. */
static PyObject *text(const Ctx *c, Py_ssize_t at, Py_ssize_t n, long ccsid) {
    const char *s = (const char *)c->buf + at;
    long eff = ccsid ? ccsid : c->ccsid;
    if (eff == 1208 || eff == 819 || eff == 367) {
        /* ASCII-compatible: ' ' and NUL bytes only ever encode those characters, so
         * stripping bytes before decoding equals stripping characters after. */
        Py_ssize_t m = n;
        while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\0')) m--;
        PyObject *u;
        if (eff == 1208) {
            u = PyUnicode_DecodeUTF8(s, m, "strict");
        } else if (eff == 819) {
            u = PyUnicode_DecodeLatin1(s, m, "strict");
        } else {
            u = PyUnicode_DecodeASCII(s, m, "strict");
        }
        if (u != NULL) return u;
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
        PyErr_Clear();
        return PyBytes_FromStringAndSize(s, n);
    }
    PyObject *raw = PyBytes_FromStringAndSize(s, n);
    if (raw == NULL) return NULL;
    PyObject *id = PyLong_FromLong(eff);
    if (id == NULL) { Py_DECREF(raw); return NULL; }
    PyObject *r = PyObject_CallFunctionObjArgs(decode_text, raw, id, NULL);
    Py_DECREF(id);
    if (r == NULL) { Py_DECREF(raw); return NULL; }
    if (r == Py_None) { Py_DECREF(r); return raw; }
    Py_DECREF(raw);
    return r;
}

#define BAD(cond) do { if (cond) goto bad; } while (0)

/* Decode `count` structures from *offset into list `out`. 0 ok; -1 malformed (no exception
 * set) or failed (exception set). */
static int parse(const Ctx *c, Py_ssize_t *offset, long count, int depth, PyObject *out) {
    Py_ssize_t off = *offset;
    for (long k = 0; k < count; k++) {
        Py_ssize_t left = c->end - off;
        BAD(left < 12);
        int32_t typ = rd32(c, off), length = rd32(c, off + 4), pid = rd32(c, off + 8);
        BAD(length < 16 || (length & 3) || length > left);
        PyObject *node = NULL;
        PyObject *p = num(pid);
        if (p == NULL) return -1;
        switch (typ) {
        case 3: /* MQCFIN */
            node = make(K_INT, p, num(rd32(c, off + 12)), NULL, NULL);
            break;
        case 4: { /* MQCFST */
            if (length < 20) { Py_DECREF(p); goto bad; }
            int32_t ccsid = rd32(c, off + 12), slen = rd32(c, off + 16);
            if (slen < 0 || slen > length - 20) { Py_DECREF(p); goto bad; }
            PyObject *v = text(c, off + 20, slen, ccsid);
            PyObject *width = NULL;
            if (v != NULL) {
                if (PyUnicode_Check(v) && PyUnicode_GET_LENGTH(v) != slen) {
                    width = num(slen);
                } else {
                    width = Py_NewRef(Py_None);
                }
            }
            node = make(K_STR, p, v, num(ccsid), width);
            break;
        }
        case 20: { /* MQCFGR */
            int32_t members = rd32(c, off + 12);
            if (depth >= c->max_depth || members < 0) { Py_DECREF(p); goto bad; }
            PyObject *list = PyList_New(0);
            if (list == NULL) { Py_DECREF(p); return -1; }
            Py_ssize_t inner = off + length;
            if (parse(c, &inner, members, depth + 1, list) < 0) {
                Py_DECREF(p);
                Py_DECREF(list);
                return -1;
            }
            node = make(K_GROUP, p, list, NULL, NULL);
            if (node == NULL) return -1;
            int r = PyList_Append(out, node);
            Py_DECREF(node);
            if (r < 0) return -1;
            off = inner;
            continue;
        }
        case 9: { /* MQCFBS */
            int32_t slen = rd32(c, off + 12);
            if (slen < 0 || slen > length - 16) { Py_DECREF(p); goto bad; }
            node = make(K_BSTR, p,
                        PyBytes_FromStringAndSize((const char *)c->buf + off + 16, slen),
                        NULL, NULL);
            break;
        }
        case 23: /* MQCFIN64 */
            if (length < 24) { Py_DECREF(p); goto bad; }
            node = make(K_INT64, p, PyLong_FromLongLong(rd64(c, off + 16)), NULL, NULL);
            break;
        case 5:
        case 25: { /* MQCFIL, MQCFIL64 */
            int32_t n = rd32(c, off + 12);
            Py_ssize_t size = typ == 5 ? 4 : 8;
            if (n < 0 || 16 + size * (Py_ssize_t)n > length) { Py_DECREF(p); goto bad; }
            PyObject *list = PyList_New(n);
            if (list != NULL) {
                for (int32_t i = 0; i < n; i++) {
                    Py_ssize_t at = off + 16 + size * i;
                    PyObject *v = typ == 5 ? num(rd32(c, at))
                                           : PyLong_FromLongLong(rd64(c, at));
                    if (v == NULL) { Py_CLEAR(list); break; }
                    PyList_SET_ITEM(list, i, v);
                }
            }
            node = make(typ == 5 ? K_ILIST : K_I64LIST, p, list, NULL, NULL);
            break;
        }
        case 6: { /* MQCFSL */
            if (length < 24) { Py_DECREF(p); goto bad; }
            int32_t ccsid = rd32(c, off + 12), n = rd32(c, off + 16), slen = rd32(c, off + 20);
            if (n < 0 || slen < 0 || 24 + (Py_ssize_t)n * slen > length || n > length) {
                Py_DECREF(p);
                goto bad;
            }
            PyObject *list = PyList_New(n);
            if (list != NULL) {
                for (int32_t i = 0; i < n; i++) {
                    PyObject *v = text(c, off + 24 + (Py_ssize_t)i * slen, slen, ccsid);
                    if (v == NULL) { Py_CLEAR(list); break; }
                    PyList_SET_ITEM(list, i, v);
                }
            }
            node = make(K_SLIST, p, list, num(ccsid), num(slen));
            break;
        }
        case 13: /* MQCFIF */
            if (length < 20) { Py_DECREF(p); goto bad; }
            node = make(K_IFILT, p, PyLong_FromLong(rd32(c, off + 12)),
                        PyLong_FromLong(rd32(c, off + 16)), NULL);
            break;
        case 14: { /* MQCFSF */
            if (length < 24) { Py_DECREF(p); goto bad; }
            int32_t op = rd32(c, off + 12), ccsid = rd32(c, off + 16), slen = rd32(c, off + 20);
            if (slen < 0 || slen > length - 24) { Py_DECREF(p); goto bad; }
            node = make(K_SFILT, p, PyLong_FromLong(op), text(c, off + 24, slen, ccsid),
                        num(ccsid));
            break;
        }
        case 15: { /* MQCFBF */
            if (length < 20) { Py_DECREF(p); goto bad; }
            int32_t op = rd32(c, off + 12), slen = rd32(c, off + 16);
            if (slen < 0 || slen > length - 20) { Py_DECREF(p); goto bad; }
            node = make(K_BFILT, p, PyLong_FromLong(op),
                        PyBytes_FromStringAndSize((const char *)c->buf + off + 20, slen), NULL);
            break;
        }
        default:
            Py_DECREF(p);
            goto bad;
        }
        if (node == NULL) return -1;
        int r = PyList_Append(out, node);
        Py_DECREF(node);
        if (r < 0) return -1;
        off += length;
    }
    *offset = off;
    return 0;
bad:
    return -1;
}

static PyObject *py_parse(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t offset, end;
    long count, ccsid;
    int little, max_depth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nlplni", &view, &offset, &count, &little, &ccsid, &end,
                          &max_depth))
        return NULL;
    if (!ready || end > view.len || offset < 0 || offset > end || count < 0) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    Ctx c = {(const unsigned char *)view.buf, end, little, ccsid, max_depth};
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    /* The tree's nodes are GC-tracked containers: left on, the cyclic collector would run
     * every ~700 of them over the young tree being built, most of the time on a large
     * report. Paused for the walk (the GIL is held throughout, except while a callback to
     * decode_text runs); the next collection then sees the finished tree once. */
    int gc_was_on = PyGC_Disable();
    int r = parse(&c, &offset, count, 0, out);
    if (gc_was_on) PyGC_Enable();
    PyBuffer_Release(&view);
    if (r < 0) {
        Py_DECREF(out);
        if (PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_MemoryError)) return NULL;
            PyErr_Clear();
        }
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(Nn)", out, offset);
}

/* init(classes, decode_text): the 11 node classes in the order of enum K_*, and the text
 * decoder for CCSIDs not done here. Raises TypeError when a class is not as expected. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *classes, *fn;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &classes, &fn)) return NULL;
    if (PyTuple_GET_SIZE(classes) != K_COUNT) {
        PyErr_SetString(PyExc_TypeError, "init: wrong number of classes");
        return NULL;
    }
    ready = 0;
    Kind found[K_COUNT];
    for (int k = 0; k < K_COUNT; k++) {
        PyObject *cls = PyTuple_GET_ITEM(classes, k);
        if (!PyType_Check(cls)) {
            PyErr_SetString(PyExc_TypeError, "init: not a class");
            return NULL;
        }
        found[k].type = (PyTypeObject *)cls;
        found[k].nfields = 0;
        found[k].untrack = k != K_ILIST && k != K_I64LIST && k != K_SLIST && k != K_GROUP
                           && PyType_IS_GC((PyTypeObject *)cls);
        for (int i = 0; FIELDS[k][i] != NULL; i++) {
            PyObject *d = PyObject_GetAttrString(cls, FIELDS[k][i]);
            if (d == NULL) return NULL;
            int ok = Py_IS_TYPE(d, &PyMemberDescr_Type);
            Py_ssize_t off = 0;
            if (ok) {
                PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
                ok = m->type == T_OBJECT_EX && !(m->flags & READONLY);
                off = m->offset;
            }
            Py_DECREF(d);
            if (!ok) {
                PyErr_Format(PyExc_TypeError, "init: %s.%s is not a slot",
                             ((PyTypeObject *)cls)->tp_name, FIELDS[k][i]);
                return NULL;
            }
            found[k].off[i] = off;
            found[k].nfields = i + 1;
        }
    }
    for (int k = 0; k < K_COUNT; k++) {
        Py_XDECREF(kinds[k].type);
        Py_INCREF(found[k].type);
        kinds[k] = found[k];
    }
    Py_XDECREF(decode_text);
    decode_text = Py_NewRef(fn);
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"parse", py_parse, METH_VARARGS,
     "parse(data, offset, count, little, ccsid, end, max_depth) -> (list, end) or None"},
    {"init", py_init, METH_VARARGS, "init(classes, decode_text): the node classes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pcf._cdecode",
    "Optional compiled fast path of pcf.decoder (see pcf/fast.py).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cdecode(void) { return PyModule_Create(&module); }
