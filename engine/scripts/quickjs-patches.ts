/**
 * Changes the release build makes to the pinned QuickJS-ng source before compiling it: string
 * searches that run in C but step one character at a time where the html target's passes search
 * documents of ~100,000 characters (bench/RESULTS.md, "the release engine's string searches in C"),
 * and the making of a function object, which every start-up does two thousand times. Each is the
 * same result by another route; a change whose anchor is not found exactly once stops the build, so
 * a new QuickJS-ng version is looked at, not patched blindly. check-quickjs-patches.ts runs
 * QuickJS-ng's own tests on the patched source under the sanitizers.
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
];

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
