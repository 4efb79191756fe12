/**
 * Changes the release build makes to the pinned QuickJS-ng source before compiling it: string
 * searches that run in C but step one character at a time where the html target's passes search
 * documents of ~100,000 characters (bench/RESULTS.md, "the release engine's string searches in C"),
 * the making of a function object, which every start-up does two thousand times, the shapes made
 * by adding a property, kept so that the next object given the same properties finds them, an
 * object literal's fields added without the general definition's checks, the reading of
 * a function's body, left until the function is first called, a Map's hashing of its keys (an
 * atom's string keeps its hash; a number's reaches every bucket), string equality (two atoms are
 * one string or unequal), text converted to and from UTF-8 a word at a time where it is ASCII, a
 * JSON string's plain characters read eight bytes a step (and one-byte text widened into a two-byte
 * string by a loop the compiler vectorizes), and small bytecode numbers read in one step. Each is
 * the same result by another route; a change whose anchor is not found exactly once stops the
 * build, so a new QuickJS-ng version is looked at, not patched blindly. check-quickjs-patches.ts
 * runs QuickJS-ng's own tests on the patched source under the sanitizers, programs compiled by its
 * qjsc, and the engine.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

import { applyPatches, type SourcePatch } from "./source-patch.js";

/** A patch to one file of QuickJS-ng's source. */
interface QuickjsPatch extends SourcePatch {
  readonly file: string;
}

export const QUICKJS_PATCHES: readonly QuickjsPatch[] = [
  {
    file: "quickjs.c",
    why: "a character in a one-byte string found by the C library's memchr, a word at a time; in a two-byte string four characters a step",
    before: `    if (p->is_wide_char) {
        for (i = from; i < len; i++) {
            if (str16(p)[i] == c)
                return i;
        }
    } else {
        if ((c & ~0xff) == 0) {
            for (i = from; i < len; i++) {
                if (str8(p)[i] == (uint8_t)c)
                    return i;
            }
        }
    }`,
    after: `    if (p->is_wide_char) {
        const uint16_t *s16 = str16(p);
        i = from;
        if ((c & ~0xffff) == 0) {
            /* a 16-bit lane of x is zero where the character is c */
            const uint64_t ones = 0x0001000100010001ULL, highs = 0x8000800080008000ULL;
            const uint64_t pattern = ones * (uint16_t)c;
            for (; i + 4 <= len; i += 4) {
                uint64_t word, x;
                memcpy(&word, s16 + i, sizeof(word));
                x = word ^ pattern;
                if ((x - ones) & ~x & highs)
                    break;
            }
        }
        for (; i < len; i++) {
            if (s16[i] == c)
                return i;
        }
    } else {
        if ((c & ~0xff) == 0 && from < len) {
            const uint8_t *q = memchr(str8(p) + from, c, len - from);
            if (q)
                return q - str8(p);
        }
    }`,
  },
  {
    file: "quickjs.c",
    why: "String.prototype.indexOf (forward) finds candidates by their first character, as split already does, instead of comparing the whole needle at every position",
    before: `    ret = -1;
    if (len >= v_len && inc * (stop - start) >= 0) {
        for (i = start;; i += inc) {`,
    after: `    ret = -1;
    if (len >= v_len && inc == 1 && stop >= start) {
        ret = string_indexof(p, p1, start);
    } else if (len >= v_len && inc * (stop - start) >= 0) {
        for (i = start;; i += inc) {`,
  },
  {
    file: "quickjs.c",
    why: "String.prototype.lastIndexOf of one character compares characters in place, not through a call of string_cmp at each position (the html clean-up looks back from each candidate for its tag's `<`, `>` and quote)",
    before: `    } else if (len >= v_len && inc * (stop - start) >= 0) {
        for (i = start;; i += inc) {`,
    after: `    } else if (len >= v_len && v_len == 1 && inc == -1 && start >= stop) {
        int c = string_get(p1, 0);
        i = start;
        if (p->is_wide_char) {
            const uint16_t *s16 = str16(p);
            while (i >= stop && s16[i] != c)
                i--;
        } else {
            const uint8_t *s8 = str8(p);
            while (i >= stop && s8[i] != c)
                i--;
        }
        ret = i >= stop ? i : -1;
    } else if (len >= v_len && inc * (stop - start) >= 0) {
        for (i = start;; i += inc) {`,
  },
  {
    file: "quickjs.c",
    why: "String.prototype.includes the same way (startsWith and endsWith compare at one position and are left alone)",
    before: `    if (start >= 0 && start <= stop) {
        for (i = start;; i++) {
            if (!string_cmp(p, p1, i, 0, v_len)) {
                ret = 1;
                break;
            }`,
    after: `    if (magic == 0 && start >= 0 && start <= stop) {
        ret = string_indexof(p, p1, start) >= 0;
    } else if (start >= 0 && start <= stop) {
        for (i = start;; i++) {
            if (!string_cmp(p, p1, i, 0, v_len)) {
                ret = 1;
                break;
            }`,
  },
  {
    file: "quickjs.c",
    why: "JSON.stringify copies each run of characters that need no escape at once, not character by character (a long-lived process escapes every new output's ~50,000 characters)",
    before: `    if (string_buffer_putc8(b, '\\"'))
        goto fail;
    for(i = 0; i < p->len; ) {
        c = string_getc(p, &i);`,
    after: `    if (string_buffer_putc8(b, '\\"'))
        goto fail;
    for(i = 0; i < p->len; ) {
        int j = i;
        if (p->is_wide_char) {
            const uint16_t *s16 = str16(p);
            while (j < p->len && s16[j] >= 32 && s16[j] != '\\"' && s16[j] != '\\\\' && !is_surrogate(s16[j]))
                j++;
            if (j > i && string_buffer_write16(b, s16 + i, j - i))
                goto fail;
        } else {
            const uint8_t *s8 = str8(p);
            while (j < p->len && s8[j] >= 32 && s8[j] != '\\"' && s8[j] != '\\\\')
                j++;
            if (j > i && string_buffer_write8(b, s8 + i, j - i))
                goto fail;
        }
        if (j > i) {
            i = j;
            continue;
        }
        c = string_getc(p, &i);`,
  },
  {
    file: "quickjs.c",
    why: "a substring of over 128 bytes (64 two-byte characters) refers to its parent instead of being copied: split and slice cut documents into such pieces by the thousand",
    before: "#define JS_STRING_SLICE_LEN_MAX 1024 // in bytes",
    after: "#define JS_STRING_SLICE_LEN_MAX 128 // in bytes",
  },
  ...closureShapePatches(),
  ...keptShapePatches(),
  ...lazyFunctionBodyPatches(),
  ...atomStringPatches(),
  ...asciiRunPatches(),
  ...jsonStringPatches(),
  {
    file: "quickjs.c",
    why: "a bytecode number below 128, most of them (counts, indexes, an atom's place in the table), read in one step",
    before: `static int bc_get_leb128(BCReaderState *s, uint32_t *pval)
{
    int ret;
    ret = get_leb128(pval, s->ptr, s->buf_end);`,
    after: `static int bc_get_leb128(BCReaderState *s, uint32_t *pval)
{
    int ret;
    if (likely(s->ptr < s->buf_end && *s->ptr < 0x80)) {
        *pval = *s->ptr++;
        return 0;
    }
    ret = get_leb128(pval, s->ptr, s->buf_end);`,
  },
  {
    file: "quickjs.c",
    why: "an object literal's field added to a plain object that has no such property yet goes straight to the property's addition (what JS_DefineProperty comes to for it, past the checks for the other kinds of object)",
    before: `                ret = JS_DefinePropertyValue(ctx, sp[-2], atom, sp[-1],
                                             JS_PROP_C_W_E | JS_PROP_THROW);
                sp--;
                if (unlikely(ret < 0))
                    goto exception;
            }
            BREAK;`,
    after: `                if (likely(JS_VALUE_GET_TAG(sp[-2]) == JS_TAG_OBJECT)) {
                    JSObject *p = JS_VALUE_GET_OBJ(sp[-2]);
                    JSProperty *pr;
                    if (p->class_id == JS_CLASS_OBJECT && p->extensible &&
                        !find_own_property(&pr, p, atom)) {
                        pr = add_property(ctx, p, atom, JS_PROP_C_W_E);
                        if (unlikely(!pr))
                            goto exception;
                        pr->u.value = sp[-1];
                        sp--;
                        BREAK;
                    }
                }
                ret = JS_DefinePropertyValue(ctx, sp[-2], atom, sp[-1],
                                             JS_PROP_C_W_E | JS_PROP_THROW);
                sp--;
                if (unlikely(ret < 0))
                    goto exception;
            }
            BREAK;`,
  },
  {
    file: "quickjs.c",
    why: "a Map or Set key that is a number hashed so that every bit of it reaches the low bits the table is indexed by: the double of a small integer has its low 32 bits and the low bits of its high word zero, which a product keeps, so integer keys shared a few buckets (a Map of 120,000 slot numbers was a list of them)",
    before: `        u.d = d;
        h = (u.u32[0] ^ u.u32[1]) * 3163;
        tag = JS_TAG_FLOAT64;`,
    after: `        u.d = d;
        {
            /* SplitMix64's finaliser */
            uint64_t x = u.u64;
            x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
            x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
            h = (uint32_t)(x ^ (x >> 31));
        }
        tag = JS_TAG_FLOAT64;`,
  },
];

/**
 * A request's strings (a saved layout: ~55,000 characters of JSON inside one string, every quote in
 * it escaped) are read by JSON.parse's string reader, which stepped a byte at a time through
 * five tests and, once a string held a character beyond Latin-1, widened each run of plain
 * characters into its two-byte buffer one store at a time: ~60 instructions a byte of a layout.
 */
function jsonStringPatches(): QuickjsPatch[] {
  return [
    {
      file: "quickjs.c",
      why: "JSON.parse steps over a string's plain characters eight bytes at a time: none a quote, a backslash, a control character or beyond ASCII",
      before: `        const uint8_t *p_start = p;
        while (p < s->buf_end && *p != '"' && *p != '\\\\' && *p >= 0x20 && *p < 0x80) {`,
      after: `        const uint8_t *p_start = p;
        while (s->buf_end - p >= 8) {
            /* a byte below 0x20, a quote, a backslash or one from 0x80 up sets its top bit here */
            const uint64_t ones = 0x0101010101010101ULL;
            uint64_t w, quote, backslash;
            memcpy(&w, p, sizeof(w));
            quote = w ^ (ones * '"');
            backslash = w ^ (ones * '\\\\');
            if (((w - ones * 0x20) | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | w) & (ones * 0x80))
                break;
            p += 8;
        }
        while (p < s->buf_end && *p != '"' && *p != '\\\\' && *p >= 0x20 && *p < 0x80) {`,
    },
    {
      file: "quickjs.c",
      why: "one-byte characters appended to a two-byte string buffer are widened in a loop the compiler can vectorize (its destination computed once)",
      before: `    if (s->is_wide_char) {
        for (i = 0; i < len; i++) {
            str16(s->str)[s->len + i] = p[i];
        }
        s->len += len;`,
      after: `    if (s->is_wide_char) {
        uint16_t *q = str16(s->str) + s->len;
        for (i = 0; i < len; i++)
            q[i] = p[i];
        s->len += len;`,
    },
  ];
}

/**
 * Text crossing between JavaScript and the host's native functions (a document to the html
 * clean-up and back, the answer to its JSON quoting) is converted between UTF-8 and QuickJS's
 * strings a character at a time; a document with one character beyond Latin-1 is a two-byte
 * string all through. Runs of ASCII, most of any document, now go eight bytes (four two-byte
 * characters) a step: the same characters, the same strings.
 */
function asciiRunPatches(): QuickjsPatch[] {
  return [
    {
      file: "cutils.h",
      why: "measuring UTF-8 text with a character beyond ASCII steps over ASCII runs a word at a time",
      before: `        kind = UTF8_NON_ASCII;
        len = 0;
        while (p < p_end) {
            len++;
            if (*p++ >= 0x80) {`,
      after: `        kind = UTF8_NON_ASCII;
        len = 0;
        while (p < p_end) {
            if (p_end - p >= 8) {
                uint64_t word;
                memcpy(&word, p, sizeof(word));
                if ((word & 0x8080808080808080ULL) == 0) {
                    p += 8;
                    len += 8;
                    continue;
                }
            }
            len++;
            if (*p++ >= 0x80) {`,
    },
    {
      file: "cutils.h",
      why: "decoding UTF-8 into two-byte characters widens ASCII runs a word at a time",
      before: `    for (i = 0; p < p_end; i++) {
        uint32_t c = *p++;
        if (c >= 0x80) {
            /* parse utf-8 sequence */`,
      after: `    for (i = 0; p < p_end; i++) {
        if (p_end - p >= 8 && dest_len >= 8 && i <= dest_len - 8) {
            uint64_t word;
            memcpy(&word, p, sizeof(word));
            if ((word & 0x8080808080808080ULL) == 0) {
                for (int k = 0; k < 8; k++)
                    dest[i + k] = p[k];
                p += 8;
                i += 7;
                continue;
            }
        }
        uint32_t c = *p++;
        if (c >= 0x80) {
            /* parse utf-8 sequence */`,
    },
    {
      file: "quickjs.c",
      why: "encoding a one-byte string with a character beyond ASCII as UTF-8 copies ASCII runs a word at a time",
      before: `        q = str8(str_new);
        for (pos = 0; pos < len; pos++) {
            c = src[pos];`,
      after: `        q = str8(str_new);
        for (pos = 0; pos < len; pos++) {
            if (len - pos >= 8) {
                uint64_t word;
                memcpy(&word, src + pos, sizeof(word));
                if ((word & 0x8080808080808080ULL) == 0) {
                    memcpy(q, &word, sizeof(word));
                    q += 8;
                    pos += 7;
                    continue;
                }
            }
            c = src[pos];`,
    },
    {
      file: "quickjs.c",
      why: "encoding a two-byte string as UTF-8 narrows ASCII runs four characters a step",
      before: `        q = str8(str_new);
        pos = 0;
        while (pos < len) {
            c = src[pos++];
            if (c < 0x80) {`,
      after: `        q = str8(str_new);
        pos = 0;
        while (pos < len) {
            if (len - pos >= 4) {
                uint64_t word;
                memcpy(&word, src + pos, sizeof(word));
                if ((word & 0xFF80FF80FF80FF80ULL) == 0) {
                    q[0] = src[pos];
                    q[1] = src[pos + 1];
                    q[2] = src[pos + 2];
                    q[3] = src[pos + 3];
                    q += 4;
                    pos += 4;
                    continue;
                }
            }
            c = src[pos++];
            if (c < 0x80) {`,
    },
  ];
}

/**
 * A string that is an atom (every string literal in the engine's code, every property name read
 * from JSON or listed by `Object.keys`) keeps the hash the runtime computed when it made the atom.
 * A Map or Set hashed each string key afresh (~90 instructions for one of an attribute's names) and
 * turning such a string back into its atom (a computed property read or write) first scanned it
 * for an array index, which an atom's string never is: both now take what the atom holds. Two
 * atoms' strings are equal only when they are one string, which `===` and a Map's lookup now know
 * without comparing their characters.
 */
function atomStringPatches(): QuickjsPatch[] {
  return [
    {
      file: "quickjs.c",
      why: "a Map or Set key's hash is the atoms' function of its characters (masked as theirs): the one an atom's string already holds, computed for any other string",
      before: `    case JS_TAG_STRING:
        h = hash_string(JS_VALUE_GET_STRING(key), 0);
        break;
    case JS_TAG_STRING_ROPE:
        h = hash_string_rope(key, 0);
        break;`,
      after: `    case JS_TAG_STRING: {
        JSString *p = JS_VALUE_GET_STRING(key);
        h = p->atom_type == JS_ATOM_TYPE_STRING ? p->hash : hash_string(p, JS_ATOM_TYPE_STRING) & JS_ATOM_HASH_MASK;
        break;
    }
    case JS_TAG_STRING_ROPE:
        h = hash_string_rope(key, JS_ATOM_TYPE_STRING) & JS_ATOM_HASH_MASK;
        break;`,
    },
    {
      file: "quickjs.c",
      why: "two strings are equal when they are one string, and two atoms' strings only then (an atom is unique to its characters): no comparison of characters",
      before: `static bool js_string_eq(JSString *p1, JSString *p2) {
    if (p1->len != p2->len)
        return false;`,
      after: `static bool js_string_eq(JSString *p1, JSString *p2) {
    if (p1 == p2)
        return true;
    if (p1->len != p2->len)
        return false;
    if (p1->atom_type == JS_ATOM_TYPE_STRING && p2->atom_type == JS_ATOM_TYPE_STRING)
        return false;`,
    },
    {
      file: "quickjs.c",
      why: "an atom's string is its atom: no scan for an array index first (an index below JS_ATOM_MAX_INT is never made a string atom)",
      before: `    JSRuntime *rt = ctx->rt;
    uint32_t n;
    if (is_num_string(&n, p)) {
        if (n <= JS_ATOM_MAX_INT) {
            js_free_string(rt, p);
            return __JS_AtomFromUInt32(n);
        }
    }`,
      after: `    JSRuntime *rt = ctx->rt;
    uint32_t n;
    if (p->atom_type == JS_ATOM_TYPE_STRING)
        return __JS_NewAtom(rt, p, JS_ATOM_TYPE_STRING);
    if (is_num_string(&n, p)) {
        if (n <= JS_ATOM_MAX_INT) {
            js_free_string(rt, p);
            return __JS_AtomFromUInt32(n);
        }
    }`,
    },
  ];
}

/**
 * A new function's `length` and `name` come with its shape, made once per context and kind of
 * function, as QuickJS-ng already does for arrays, `arguments` and regular expressions. Defined one
 * at a time, each function took the generic define path twice, and cloned a shape each time: the
 * shape after `length` alone is owned by the function that made it and becomes the two-property
 * shape in place, so the next function never finds it. Same properties, same order, same flags.
 */
function closureShapePatches(): QuickjsPatch[] {
  return [
    {
      file: "quickjs.c",
      why: "the context keeps one shape per kind of function (normal, generator, async, async generator)",
      before: "    JSShape *regexp_result_shape;  /* shape for regexp result objects */",
      after: `    JSShape *regexp_result_shape;  /* shape for regexp result objects */
    JSShape *closure_shape[4];  /* shape of a new function, by func_kind: length, name */`,
    },
    {
      file: "quickjs.c",
      why: "the collector sees the context's function shapes, as its other shapes",
      before: `    if (ctx->regexp_result_shape)
        mark_func(rt, &ctx->regexp_result_shape->header);`,
      after: `    if (ctx->regexp_result_shape)
        mark_func(rt, &ctx->regexp_result_shape->header);

    for (int i = 0; i < countof(ctx->closure_shape); i++) {
        if (ctx->closure_shape[i])
            mark_func(rt, &ctx->closure_shape[i]->header);
    }`,
    },
    {
      file: "quickjs.c",
      why: "the context's function shapes are freed with it",
      before: "    js_free_shape_null(ctx->rt, ctx->regexp_result_shape);",
      after: `    js_free_shape_null(ctx->rt, ctx->regexp_result_shape);
    for (int i = 0; i < countof(ctx->closure_shape); i++)
        js_free_shape_null(ctx->rt, ctx->closure_shape[i]);`,
    },
    {
      file: "quickjs.c",
      why: "a function object is made from its kind's shape, its length and name written in place",
      before: `    b = JS_VALUE_GET_PTR(bfunc);
    func_obj = JS_NewObjectClass(ctx, func_kind_to_class_id[b->func_kind]);
    if (JS_IsException(func_obj)) {
        JS_FreeValue(ctx, bfunc);
        return JS_EXCEPTION;
    }
    func_obj = js_closure2(ctx, func_obj, b, cur_var_refs, sf);
    if (JS_IsException(func_obj)) {
        /* bfunc has been freed */
        goto fail;
    }
    name_atom = b->func_name;
    if (name_atom == JS_ATOM_NULL)
        name_atom = JS_ATOM_empty_string;
    js_function_set_properties(ctx, func_obj, name_atom,
                               b->defined_arg_count);
`,
      after: `    b = JS_VALUE_GET_PTR(bfunc);
    name_atom = b->func_name;
    if (name_atom == JS_ATOM_NULL)
        name_atom = JS_ATOM_empty_string;
    func_obj = js_new_closure_object(ctx, b, name_atom);
    if (JS_IsException(func_obj)) {
        JS_FreeValue(ctx, bfunc);
        return JS_EXCEPTION;
    }
    func_obj = js_closure2(ctx, func_obj, b, cur_var_refs, sf);
    if (JS_IsException(func_obj)) {
        /* bfunc has been freed */
        goto fail;
    }
`,
    },
    {
      file: "quickjs.c",
      why: "the function object of a closure, with its length and name (what js_function_set_properties defines)",
      before: `static JSValue js_closure(JSContext *ctx, JSValue bfunc,
                          JSVarRef **cur_var_refs,
                          JSStackFrame *sf)
{`,
      after: `static JSValue js_new_closure_object(JSContext *ctx, JSFunctionBytecode *b,
                                     JSAtom name_atom)
{
    static const JSShapeProperty closure_props[] = {
        {.atom=JS_ATOM_length, .flags=JS_PROP_CONFIGURABLE},
        {.atom=JS_ATOM_name,   .flags=JS_PROP_CONFIGURABLE},
    };
    JSClassID class_id = func_kind_to_class_id[b->func_kind];
    JSShape **psh = &ctx->closure_shape[b->func_kind];
    JSValue name, func_obj;
    JSObject *p;

    if (!*psh && js_new_shape_with(ctx, psh, ctx->class_proto[class_id],
                                   countof(closure_props), closure_props))
        return JS_EXCEPTION;
    name = JS_AtomToString(ctx, name_atom);
    if (JS_IsException(name))
        return JS_EXCEPTION;
    func_obj = JS_NewObjectFromShape(ctx, js_dup_shape(*psh), class_id, NULL);
    if (JS_IsException(func_obj)) {
        JS_FreeValue(ctx, name);
        return JS_EXCEPTION;
    }
    p = JS_VALUE_GET_OBJ(func_obj);
    p->prop[0].u.value = js_int32(b->defined_arg_count);
    p->prop[1].u.value = name;
    return func_obj;
}

static JSValue js_closure(JSContext *ctx, JSValue bfunc,
                          JSVarRef **cur_var_refs,
                          JSStackFrame *sf)
{`,
    },
  ];
}

/**
 * An object given a property moves to the shape of its properties plus that one. QuickJS-ng finds
 * that shape when it exists; when it does not, an object that alone holds its shape changes it in
 * place, so the shapes between an object's first property and its last exist only while the object
 * is at them, and the next object built with the same properties in the same order (every
 * object literal, every parsed template field by field) copies a shape and adds each property to
 * its copy again. The context now keeps the shapes made by adding a property (up to
 * KEPT_SHAPES_MAX, of fewer than KEPT_SHAPE_PROPS properties: a bound on what they hold), so the
 * next such object finds each of them. A kept shape has two holders when an object is at it, so
 * nothing changes it in place; the context's collector marks see them, and they are freed with
 * the context.
 */
function keptShapePatches(): QuickjsPatch[] {
  return [
    {
      file: "quickjs.c",
      why: "the context's kept shapes",
      before: "    JSShape *closure_shape[4];  /* shape of a new function, by func_kind: length, name */",
      after: `    JSShape *closure_shape[4];  /* shape of a new function, by func_kind: length, name */
    JSShape **kept_shapes;  /* shapes made by adding a property, found by later objects (add_property) */
    uint32_t kept_shape_count;`,
    },
    {
      file: "quickjs.c",
      why: "the collector sees the context's kept shapes",
      before: `    for (int i = 0; i < countof(ctx->closure_shape); i++) {
        if (ctx->closure_shape[i])
            mark_func(rt, &ctx->closure_shape[i]->header);
    }`,
      after: `    for (int i = 0; i < countof(ctx->closure_shape); i++) {
        if (ctx->closure_shape[i])
            mark_func(rt, &ctx->closure_shape[i]->header);
    }
    for (uint32_t i = 0; i < ctx->kept_shape_count; i++)
        mark_func(rt, &ctx->kept_shapes[i]->header);`,
    },
    {
      file: "quickjs.c",
      why: "the context's kept shapes are freed with it",
      before: `    for (int i = 0; i < countof(ctx->closure_shape); i++)
        js_free_shape_null(ctx->rt, ctx->closure_shape[i]);`,
      after: `    for (int i = 0; i < countof(ctx->closure_shape); i++)
        js_free_shape_null(ctx->rt, ctx->closure_shape[i]);
    for (uint32_t i = 0; i < ctx->kept_shape_count; i++)
        js_free_shape(ctx->rt, ctx->kept_shapes[i]);
    js_free_rt(ctx->rt, ctx->kept_shapes);`,
    },
    {
      file: "quickjs.c",
      why: "a shape made by adding a property is a new shape the context keeps, while it keeps fewer than its bound",
      before: `            p->shape = js_dup_shape(new_sh);
            js_free_shape(ctx->rt, sh);
            return &p->prop[new_sh->prop_count - 1];
        } else if (JS_REF_COUNT(sh) != 1) {`,
      after: `            p->shape = js_dup_shape(new_sh);
            js_free_shape(ctx->rt, sh);
            return &p->prop[new_sh->prop_count - 1];
        } else if (sh->prop_count < KEPT_SHAPE_PROPS &&
                   ctx->kept_shape_count < KEPT_SHAPES_MAX) {
            if (!ctx->kept_shapes) {
                ctx->kept_shapes = js_malloc(ctx, sizeof(ctx->kept_shapes[0]) * KEPT_SHAPES_MAX);
                if (!ctx->kept_shapes)
                    return NULL;
            }
            new_sh = js_clone_shape(ctx, sh);
            if (!new_sh)
                return NULL;
            new_sh->is_hashed = true;
            js_shape_hash_link(ctx->rt, new_sh);
            /* grows the object's property array with the shape when it must */
            if (add_shape_property(ctx, &new_sh, p, prop, prop_flags)) {
                js_free_shape(ctx->rt, new_sh);
                return NULL;
            }
            ctx->kept_shapes[ctx->kept_shape_count++] = js_dup_shape(new_sh);
            js_free_shape(ctx->rt, sh);
            p->shape = new_sh;
            return &p->prop[new_sh->prop_count - 1];
        } else if (JS_REF_COUNT(sh) != 1) {`,
    },
    {
      file: "quickjs.c",
      why: "the bounds on the context's kept shapes: how many, and of how many properties",
      before: `static JSProperty *add_property(JSContext *ctx,
                                JSObject *p, JSAtom prop, int prop_flags)
{`,
      after: `#define KEPT_SHAPES_MAX 4096
#define KEPT_SHAPE_PROPS 64

static JSProperty *add_property(JSContext *ctx,
                                JSObject *p, JSAtom prop, int prop_flags)
{`,
    },
  ];
}

/**
 * A function's body (its constant pool, with the functions defined in it, its bytecode and its
 * debug information) read from the executable's bytecode when the function is first called, not
 * at start-up: a process reads all of the engine's bytecode and calls under half of its functions
 * (a one-shot render; far fewer for `--version`). The writer puts the body's length before it,
 * marked by a flag bit QuickJS-ng leaves free (bytecode written before, QuickJS-ng's own built-in
 * functions among it, has no such bit and is read at once). Only a read asked for with
 * JS_READ_OBJ_LAZY_FUNCTIONS defers bodies: js_std_eval_binary's, which reads arrays compiled into
 * the executable, so the buffer outlives every function. Until it is read, a body's function has
 * no bytecode buffer and a zeroed constant pool (what free and mark see, as in a function being
 * read), and holds the read's atoms; the interpreter's two entries read it first, as do what reads
 * its debug information (`toString`, `fileName`, `lineNumber`, `columnNumber`) and the writer.
 */
function lazyFunctionBodyPatches(): QuickjsPatch[] {
  return [
    {
      file: "quickjs.h",
      why: "the read flag",
      before: "#define JS_READ_OBJ_REFERENCE (1 << 3) /* allow object references */",
      after: `#define JS_READ_OBJ_REFERENCE (1 << 3) /* allow object references */
/* function bodies read when first called: \`buf\` must outlive every function read from it */
#define JS_READ_OBJ_LAZY_FUNCTIONS (1 << 4)`,
    },
    {
      file: "quickjs-libc.c",
      why: "qjsc's arrays (and the REPL's) are static: their functions' bodies are read when first called",
      before: "    obj = JS_ReadObject(ctx, buf, buf_len, JS_READ_OBJ_BYTECODE);\n    if (JS_IsException(obj))\n        goto exception;\n    if (load_only) {",
      after:
        "    obj = JS_ReadObject(ctx, buf, buf_len, JS_READ_OBJ_BYTECODE | JS_READ_OBJ_LAZY_FUNCTIONS);\n    if (JS_IsException(obj))\n        goto exception;\n    if (load_only) {",
    },
    {
      file: "quickjs.c",
      why: "where a function's body still is",
      before: "    char *source;\n} JSFunctionBytecode;",
      after: `    char *source;
    /* not NULL while the body (cpool, bytecode, debug) is unread: it is at lazy_body in this read's buffer */
    struct JSLazyRead *lazy_read;
    uint32_t lazy_body;
    bool lazy_has_debug_info;
} JSFunctionBytecode;`,
    },
    {
      file: "quickjs.c",
      why: "the interpreter's entries read a body before running it",
      before: "static void free_function_bytecode(JSRuntime *rt, JSFunctionBytecode *b);\n",
      after:
        "static void free_function_bytecode(JSRuntime *rt, JSFunctionBytecode *b);\nstatic int js_read_lazy_body(JSContext *ctx, JSFunctionBytecode *b);\n",
    },
    {
      file: "quickjs.c",
      why: "a read whose bodies are read later, kept by the read and by each function whose body is unread",
      before: "static void free_function_bytecode(JSRuntime *rt, JSFunctionBytecode *b)\n{\n    int i;\n",
      after: `typedef struct JSLazyRead {
    int ref_count;
    const uint8_t *buf_start, *buf_end;
    JSAtom *idx_to_atom; /* the read's atoms (one reference each) */
    uint32_t idx_to_atom_count;
} JSLazyRead;

static void js_lazy_read_release(JSRuntime *rt, JSLazyRead *lr)
{
    uint32_t i;

    if (--lr->ref_count > 0)
        return;
    for(i = 0; i < lr->idx_to_atom_count; i++)
        JS_FreeAtomRT(rt, lr->idx_to_atom[i]);
    js_free_rt(rt, lr->idx_to_atom);
    js_free_rt(rt, lr);
}

static void free_function_bytecode(JSRuntime *rt, JSFunctionBytecode *b)
{
    int i;

    if (b->lazy_read)
        js_lazy_read_release(rt, b->lazy_read);
`,
    },
    {
      file: "quickjs.c",
      why: "a call reads the body first",
      before: "    b = p->u.func.function_bytecode;\n\n    if (unlikely(argc < b->arg_count || (flags & JS_CALL_FLAG_COPY_ARGV))) {",
      after: `    b = p->u.func.function_bytecode;
    if (unlikely(b->lazy_read) && js_read_lazy_body(caller_ctx, b))
        return JS_EXCEPTION;

    if (unlikely(argc < b->arg_count || (flags & JS_CALL_FLAG_COPY_ARGV))) {`,
    },
    {
      file: "quickjs.c",
      why: "a generator's or an async function's frame starts at its bytecode: read first",
      before:
        "    b = p->u.func.function_bytecode;\n    sf->is_strict_mode = b->is_strict_mode;\n    sf->is_constructor = false;\n    sf->cur_pc = b->byte_code_buf;",
      after: `    b = p->u.func.function_bytecode;
    if (unlikely(b->lazy_read) && js_read_lazy_body(ctx, b))
        return -1;
    sf->is_strict_mode = b->is_strict_mode;
    sf->is_constructor = false;
    sf->cur_pc = b->byte_code_buf;`,
    },
    {
      file: "quickjs.c",
      why: "a function's file name is its debug information's: read first",
      before: `static JSValue js_function_proto_fileName(JSContext *ctx,
                                          JSValueConst this_val)
{
    JSFunctionBytecode *b = JS_GetFunctionBytecode(this_val);
    if (b) {`,
      after: `static JSValue js_function_proto_fileName(JSContext *ctx,
                                          JSValueConst this_val)
{
    JSFunctionBytecode *b = JS_GetFunctionBytecode(this_val);
    if (b) {
        if (b->lazy_read && js_read_lazy_body(ctx, b))
            return JS_EXCEPTION;`,
    },
    {
      file: "quickjs.c",
      why: "a function's line and column are its debug information's: read first",
      before: `    JSFunctionBytecode *b = JS_GetFunctionBytecode(this_val);
    if (b) {
        int *field = (int *) ((char *)b + magic);`,
      after: `    JSFunctionBytecode *b = JS_GetFunctionBytecode(this_val);
    if (b) {
        int *field = (int *) ((char *)b + magic);
        if (b->lazy_read && js_read_lazy_body(ctx, b))
            return JS_EXCEPTION;`,
    },
    {
      file: "quickjs.c",
      why: "a function's source text is its debug information's: read first",
      before: `        JSFunctionBytecode *b = p->u.func.function_bytecode;
        /* \`b->source\` must be pure ASCII or UTF-8 encoded */`,
      after: `        JSFunctionBytecode *b = p->u.func.function_bytecode;
        if (b->lazy_read && js_read_lazy_body(ctx, b))
            return JS_EXCEPTION;
        /* \`b->source\` must be pure ASCII or UTF-8 encoded */`,
    },
    {
      file: "quickjs.c",
      why: "the writer marks a body's length and puts it before the body",
      before: "    bc_set_flags(&flags, &idx, s->allow_debug, 1);\n    assert(idx <= 16);",
      after:
        "    bc_set_flags(&flags, &idx, s->allow_debug, 1);\n    bc_set_flags(&flags, &idx, 1, 1); /* the body's length comes before it */\n    assert(idx <= 16);",
    },
    {
      file: "quickjs.c",
      why: "the body's length: a placeholder, filled in once the body is written",
      before: `    // write constant pool before code so code can be disassembled
    // on the fly at read time
    for(i = 0; i < b->cpool_count; i++) {`,
      after: `    body_start = s->dbuf.size;
    bc_put_u32(s, 0);

    // write constant pool before code so code can be disassembled
    // on the fly at read time
    for(i = 0; i < b->cpool_count; i++) {`,
    },
    {
      file: "quickjs.c",
      why: "the body's length filled in",
      before: `            bc_put_leb128(s, 0);
        }
    }
    return 0;
 fail:
    return -1;
}

static int JS_WriteModule(`,
      after: `            bc_put_leb128(s, 0);
        }
    }
    if (!s->dbuf.error)
        put_u32(s->dbuf.buf + body_start, s->dbuf.size - body_start - 4);
    return 0;
 fail:
    return -1;
}

static int JS_WriteModule(`,
    },
    {
      file: "quickjs.c",
      why: "the writer's declaration of where the body starts; a function written out is read first",
      before: "    JSFunctionBytecode *b = JS_VALUE_GET_PTR(obj);\n    uint32_t flags;\n    int idx, i;\n\n    bc_put_u8(s, BC_TAG_FUNCTION_BYTECODE);",
      after:
        "    JSFunctionBytecode *b = JS_VALUE_GET_PTR(obj);\n    uint32_t flags;\n    int idx, i;\n    size_t body_start;\n\n    if (b->lazy_read && js_read_lazy_body(s->ctx, b))\n        return -1;\n    bc_put_u8(s, BC_TAG_FUNCTION_BYTECODE);",
    },
    {
      file: "quickjs.c",
      why: "a read that defers bodies",
      before: "    bool allow_reference;\n    /* object references */\n    JSObject **objects;",
      after:
        "    bool allow_reference;\n    struct JSLazyRead *lazy; /* bodies deferred against this read, or NULL */\n    /* object references */\n    JSObject **objects;",
    },
    {
      file: "quickjs.c",
      why: "a function's body read by one function, at once or when first called",
      before: "static JSValue JS_ReadFunctionTag(BCReaderState *s)\n{",
      after: `static int JS_ReadFunctionBytecode(BCReaderState *s, JSFunctionBytecode *b,
                                   int byte_code_offset, uint32_t bc_len);

/* The body of b, whose header and variables are read: cpool, bytecode, debug information. */
static int JS_ReadFunctionBody(BCReaderState *s, JSFunctionBytecode *b,
                               int byte_code_offset, int has_debug_info)
{
    JSContext *ctx = s->ctx;
    int i;

    if (b->cpool_count != 0) {
        bc_read_trace(s, "cpool {\\n");
        for(i = 0; i < b->cpool_count; i++) {
            JSValue val;
            val = JS_ReadObjectRec(s);
            if (JS_IsException(val))
                return -1;
            b->cpool[i] = val;
        }
        bc_read_trace(s, "}\\n");
    }
    {
        bc_read_trace(s, "bytecode {\\n");
        if (JS_ReadFunctionBytecode(s, b, byte_code_offset, b->byte_code_len))
            return -1;
        bc_read_trace(s, "}\\n");
    }
    if (!has_debug_info)
        return 0;

    /* read optional debug information */
    bc_read_trace(s, "debug {\\n");
    if (bc_get_atom(s, &b->filename))
        return -1;
    if (bc_get_leb128_int(s, &b->line_num))
        return -1;
    if (bc_get_leb128_int(s, &b->col_num))
        return -1;
    if (bc_get_leb128_int(s, &b->pc2line_len))
        return -1;
    if (b->pc2line_len) {
        bc_read_trace(s, "positions: %d bytes\\n", b->pc2line_len);
        b->pc2line_buf = js_mallocz(ctx, b->pc2line_len);
        if (!b->pc2line_buf)
            return -1;
        if (bc_get_buf(s, b->pc2line_buf, b->pc2line_len))
            return -1;
    }
    if (bc_get_leb128_int(s, &b->source_len))
        return -1;
    if (b->source_len) {
        bc_read_trace(s, "source: %d bytes\\n", b->source_len);
        if (s->ptr_last)
            s->ptr_last += b->source_len;  // omit source code hex dump
        /* b->source is a UTF-8 encoded null terminated C string */
        b->source = js_mallocz(ctx, b->source_len + 1);
        if (!b->source)
            return -1;
        if (bc_get_buf(s, b->source, b->source_len))
            return -1;
    }
    bc_read_trace(s, "}\\n");
    return 0;
}

/* The deferred body of b read, at its first call. On failure, what was read is dropped and the
   body stays deferred. */
static int js_read_lazy_body(JSContext *ctx, JSFunctionBytecode *b)
{
    JSLazyRead *lr = b->lazy_read;
    JSRuntime *rt = ctx->rt;
    BCReaderState ss, *s = &ss;
    int local_count = b->vardefs ? b->arg_count + b->var_count : 0;
    int byte_code_len = b->byte_code_len;
    int byte_code_offset, i;

    byte_code_offset = sizeof(*b) + b->cpool_count * sizeof(*b->cpool) +
        local_count * sizeof(*b->vardefs) +
        b->closure_var_count * sizeof(*b->closure_var);
    memset(s, 0, sizeof(*s));
    s->ctx = b->realm;
    s->buf_start = lr->buf_start;
    s->buf_end = lr->buf_end;
    s->ptr = lr->buf_start + b->lazy_body;
    s->first_atom = JS_ATOM_END;
    s->idx_to_atom = lr->idx_to_atom;
    s->idx_to_atom_count = lr->idx_to_atom_count;
    s->allow_bytecode = true;
    s->lazy = lr;
    if (JS_ReadFunctionBody(s, b, byte_code_offset, b->lazy_has_debug_info)) {
        for(i = 0; i < b->cpool_count; i++) {
            JS_FreeValueRT(rt, b->cpool[i]);
            b->cpool[i] = JS_MKVAL(JS_TAG_INT, 0);
        }
        if (b->byte_code_buf)
            free_bytecode_atoms(rt, b->byte_code_buf, b->byte_code_len, true);
        b->byte_code_buf = NULL;
        b->byte_code_len = byte_code_len;
        JS_FreeAtomRT(rt, b->filename);
        b->filename = JS_ATOM_NULL;
        js_free_rt(rt, b->pc2line_buf);
        b->pc2line_buf = NULL;
        b->pc2line_len = 0;
        js_free_rt(rt, b->source);
        b->source = NULL;
        b->source_len = 0;
        return -1;
    }
    b->lazy_read = NULL;
    js_lazy_read_release(rt, lr);
    return 0;
}

static JSValue JS_ReadFunctionTag(BCReaderState *s)
{`,
    },
    {
      file: "quickjs.c",
      why: "the reader's flag for a body's length",
      before: "    int idx, i, local_count, has_debug_info;\n    int function_size, cpool_offset, byte_code_offset;",
      after: "    int idx, i, local_count, has_debug_info, has_body_length;\n    int function_size, cpool_offset, byte_code_offset;",
    },
    {
      file: "quickjs.c",
      why: "the reader's flag for a body's length, after the debug information's",
      before: "    has_debug_info = bc_get_flags(v16, &idx, 1);\n",
      after: "    has_debug_info = bc_get_flags(v16, &idx, 1);\n    has_body_length = bc_get_flags(v16, &idx, 1);\n",
    },
    {
      file: "quickjs.c",
      why: "the body deferred, or read at once by JS_ReadFunctionBody",
      before: `    if (b->cpool_count != 0) {
        bc_read_trace(s, "cpool {\\n");
        for(i = 0; i < b->cpool_count; i++) {
            JSValue val;
            val = JS_ReadObjectRec(s);
            if (JS_IsException(val))
                goto fail;
            b->cpool[i] = val;
        }
        bc_read_trace(s, "}\\n");
    }
    {
        bc_read_trace(s, "bytecode {\\n");
        if (JS_ReadFunctionBytecode(s, b, byte_code_offset, b->byte_code_len))
            goto fail;
        bc_read_trace(s, "}\\n");
    }
    if (!has_debug_info)
        goto nodebug;

    /* read optional debug information */
    bc_read_trace(s, "debug {\\n");
    if (bc_get_atom(s, &b->filename))
        goto fail;
    if (bc_get_leb128_int(s, &b->line_num))
        goto fail;
    if (bc_get_leb128_int(s, &b->col_num))
        goto fail;
#ifdef ENABLE_DUMPS // JS_DUMP_READ_OBJECT
    if (check_dump_flag(s->ctx->rt, JS_DUMP_READ_OBJECT)) {
        bc_read_trace(s, "filename: ");
        print_atom(s->ctx, b->filename);
        printf(", line: %d, column: %d\\n", b->line_num, b->col_num);
    }
#endif
    if (bc_get_leb128_int(s, &b->pc2line_len))
        goto fail;
    if (b->pc2line_len) {
        bc_read_trace(s, "positions: %d bytes\\n", b->pc2line_len);
        b->pc2line_buf = js_mallocz(ctx, b->pc2line_len);
        if (!b->pc2line_buf)
            goto fail;
        if (bc_get_buf(s, b->pc2line_buf, b->pc2line_len))
            goto fail;
    }
    if (bc_get_leb128_int(s, &b->source_len))
        goto fail;
    if (b->source_len) {
        bc_read_trace(s, "source: %d bytes\\n", b->source_len);
        if (s->ptr_last)
            s->ptr_last += b->source_len;  // omit source code hex dump
        /* b->source is a UTF-8 encoded null terminated C string */
        b->source = js_mallocz(ctx, b->source_len + 1);
        if (!b->source)
            goto fail;
        if (bc_get_buf(s, b->source, b->source_len))
            goto fail;
    }
    bc_read_trace(s, "}\\n");

 nodebug:`,
      after: `    if (has_body_length) {
        uint32_t body_length;
        if (bc_get_u32(s, &body_length))
            goto fail;
        if (s->lazy) {
            if (body_length > s->buf_end - s->ptr) {
                bc_read_error_end(s);
                goto fail;
            }
            b->lazy_read = s->lazy;
            s->lazy->ref_count++;
            b->lazy_body = s->ptr - s->buf_start;
            b->lazy_has_debug_info = has_debug_info;
            s->ptr += body_length;
            goto nodebug;
        }
    }
    if (JS_ReadFunctionBody(s, b, byte_code_offset, has_debug_info))
        goto fail;

 nodebug:`,
    },
    {
      file: "quickjs.c",
      why: "a read that defers bodies keeps its atoms for them",
      before: "static void bc_reader_free(BCReaderState *s)\n{\n    int i;\n",
      after: `static void bc_reader_free(BCReaderState *s)
{
    int i;
    if (s->lazy) {
        if (s->lazy->ref_count > 1) {
            s->lazy->idx_to_atom = s->idx_to_atom;
            s->lazy->idx_to_atom_count = s->idx_to_atom_count;
            s->idx_to_atom = NULL;
        }
        js_lazy_read_release(s->ctx->rt, s->lazy);
    }
`,
    },
    {
      file: "quickjs.c",
      why: "JS_READ_OBJ_LAZY_FUNCTIONS: bodies deferred, for bytecode without object references",
      before: "    s->allow_reference = ((flags & JS_READ_OBJ_REFERENCE) != 0);\n    if (s->allow_bytecode)",
      after: `    s->allow_reference = ((flags & JS_READ_OBJ_REFERENCE) != 0);
    if ((flags & JS_READ_OBJ_LAZY_FUNCTIONS) && s->allow_bytecode && !s->allow_reference) {
        s->lazy = js_mallocz(ctx, sizeof(*s->lazy));
        if (!s->lazy)
            return JS_EXCEPTION;
        s->lazy->ref_count = 1;
        s->lazy->buf_start = buf;
        s->lazy->buf_end = buf + buf_len;
    }
    if (s->allow_bytecode)`,
    },
  ];
}

/**
 * The pinned source with the patches applied, in a directory named after the crate and the patches
 * (so compiled objects cached per source directory are never stale): made once, reused after.
 */
export function patchedQuickjsSource(pristine: string, workDir: string): string {
  const digest = createHash("sha256").update(JSON.stringify(QUICKJS_PATCHES)).digest("hex").slice(0, 12);
  const crate = basename(dirname(dirname(pristine)));
  const target = join(workDir, `${crate}+patched-${digest}`, "embed", "quickjs");
  if (existsSync(target)) return target;
  const staging = `${target}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(dirname(staging), { recursive: true });
  cpSync(pristine, staging, { recursive: true });
  for (const patch of QUICKJS_PATCHES) {
    const path = join(staging, patch.file);
    writeFileSync(path, applyPatches(readFileSync(path, "utf8"), [patch], `QuickJS-ng's ${patch.file}`));
  }
  renameSync(staging, target);
  return target;
}
