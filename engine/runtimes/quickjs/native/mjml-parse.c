/*
 * The MJML our writer writes, read into the tree `parseMjml` makes of it (engine/src/mjml-to-html/
 * parse.ts: mjml-parser-xml's tree), in C for the release engine's host, as the global function
 * `mailrenderParseMjml(mjml, endingTags)` (`endingTags`: the names whose inner markup is content,
 * each followed by a space). The JavaScript is the definition; this reads only the forms the writer
 * writes — ` name="value"` attributes, tags ending with `>` or `/>`, the open element's `</name>`,
 * comments, white space between tags — and returns undefined for anything else, errors included,
 * which the JavaScript then reads (or refuses, naming the offset). Also left to it: markup holding
 * a lone surrogate (which UTF-8 cannot carry back), and nesting deeper than MAX_DEPTH.
 *
 * Under QuickJS's interpreter the JavaScript reader paid for every indexOf, slice and character
 * read (~6.5 M instructions for the newsletter's MJML); here the objects it returns are most of
 * the cost.
 *
 * Installed by `mailrender_mjml_parse_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "global-function.h"
#include "quickjs.h"
#include "markup-text.h"

#define MAX_DEPTH 64

typedef struct {
    JSContext *ctx;
    const uint8_t *p;
    size_t n;
    const uint8_t *ending;
    size_t ending_length;
    JSAtom tag_name, attributes, children, content;
} Reader;

typedef struct {
    JSValue children;
    uint32_t count;
    size_t name_start, name_length;
} Open;

/* What mjml-parser-xml's name group takes: `[a-z][a-z0-9-]*`; its length (0: none). */
static size_t tag_name_length(const uint8_t *p, size_t i, size_t n)
{
    if (i >= n || p[i] < 'a' || p[i] > 'z')
        return 0;
    size_t k = i + 1;
    while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '-'))
        k++;
    return k - i;
}

/* A byte an attribute's name may hold (`[^\s"'>/=]`, ASCII only here). */
static int name_byte(uint8_t b)
{
    return b > 0x20 && b < 0x7f && b != '"' && b != '\'' && b != '>' && b != '/' && b != '=';
}

/* Whether `name` is one of the ending tags (the list: names each followed by a space). */
static int is_ending_tag(const Reader *r, const uint8_t *name, size_t length)
{
    const uint8_t *p = r->ending, *end = r->ending + r->ending_length;
    while (p < end) {
        const uint8_t *space = memchr(p, ' ', (size_t)(end - p));
        size_t entry = space == NULL ? (size_t)(end - p) : (size_t)(space - p);
        if (entry == length && memcmp(p, name, length) == 0)
            return 1;
        p += entry + 1;
    }
    return 0;
}

static JSValue new_string(const Reader *r, size_t start, size_t end)
{
    return JS_NewStringLen(r->ctx, (const char *)r->p + start, end - start);
}

/* A tag's name as its atom's string: the compile reads properties and Map entries by it, which an
   atom's string finds without hashing it again. */
static JSValue new_name(JSContext *ctx, const char *chars, size_t length)
{
    JSAtom atom = JS_NewAtomLen(ctx, chars, length);
    if (atom == JS_ATOM_NULL)
        return JS_EXCEPTION;
    JSValue name = JS_AtomToString(ctx, atom);
    JS_FreeAtom(ctx, atom);
    return name;
}

/* `{ tagName, attributes, children: [], content }` in that order, as the JavaScript writes it; its children array in *children. */
static JSValue new_node(const Reader *r, JSValue tag_name, JSValue attributes, JSValue content, JSValue *children)
{
    JSValue node = JS_NewObject(r->ctx);
    JSValue list = JS_NewArray(r->ctx);
    *children = list;
    JS_DefinePropertyValue(r->ctx, node, r->tag_name, tag_name, JS_PROP_C_W_E);
    JS_DefinePropertyValue(r->ctx, node, r->attributes, attributes, JS_PROP_C_W_E);
    JS_DefinePropertyValue(r->ctx, node, r->children, list, JS_PROP_C_W_E);
    JS_DefinePropertyValue(r->ctx, node, r->content, content, JS_PROP_C_W_E);
    return node;
}

/*
 * The attributes written from i up to the tag's end into a new object; *end is where the tag
 * ends (after its `>`), *self_closing whether it ended with `/>`. JS_UNDEFINED where the tag is
 * not written as the writer writes it.
 */
static JSValue read_attributes(const Reader *r, size_t i, size_t *end, int *self_closing)
{
    const uint8_t *p = r->p;
    size_t n = r->n;
    JSValue attributes = JS_NewObject(r->ctx);
    for (;;) {
        if (i < n && p[i] == '>') {
            *end = i + 1;
            *self_closing = 0;
            return attributes;
        }
        if (i + 1 < n && p[i] == '/' && p[i + 1] == '>') {
            *end = i + 2;
            *self_closing = 1;
            return attributes;
        }
        /* ` name="value"`; else white space before the tag's end (`<mj-breakpoint width="601px" />`), else the JavaScript's. */
        size_t name_start = i + 1, k = name_start;
        while (i < n && p[i] == ' ' && k < n && name_byte(p[k]))
            k++;
        const uint8_t *quote = k > name_start && k + 1 < n && p[k] == '=' && p[k + 1] == '"' ? scan(p + k + 2, '"', n - (k + 2)) : NULL;
        if (quote == NULL) {
            size_t w, blank = i;
            while (blank < n && (w = space_at(p, blank, n)) > 0)
                blank += w;
            if (blank == i || blank >= n || (p[blank] != '>' && !(p[blank] == '/' && blank + 1 < n && p[blank + 1] == '>')))
                break;
            i = blank;
            continue;
        }
        size_t value_start = k + 2, value_end = (size_t)(quote - p), name_length = k - name_start;
        /* `__proto__` would set the object's prototype: left to the JavaScript, which assigns it the same way. */
        if (name_length == 9 && memcmp(p + name_start, "__proto__", 9) == 0)
            break;
        JSValue value;
        if (value_end - value_start == 4 && memcmp(p + value_start, "true", 4) == 0)
            value = JS_TRUE;
        else if (value_end - value_start == 5 && memcmp(p + value_start, "false", 5) == 0)
            value = JS_FALSE;
        else
            value = new_string(r, value_start, value_end);
        JSAtom name = JS_NewAtomLen(r->ctx, (const char *)p + name_start, name_length);
        /* An assignment, as the JavaScript's `attributes[name] = value`: a repeated name keeps its first place. */
        JS_SetProperty(r->ctx, attributes, name, value);
        JS_FreeAtom(r->ctx, name);
        i = value_end + 1;
    }
    JS_FreeValue(r->ctx, attributes);
    return JS_UNDEFINED;
}

static JSValue parse(Reader *r)
{
    const uint8_t *p = r->p;
    size_t n = r->n, position = 0;
    Open stack[MAX_DEPTH];
    int depth = 0;
    JSValue root = JS_UNDEFINED;
    while (position < n) {
        const uint8_t *lt = scan(p + position, '<', n - position);
        size_t at = lt == NULL ? n : (size_t)(lt - p);
        /* Text outside an ending tag: white space, or (outside the root) dropped; other text is left to the JavaScript. */
        if (depth > 0 && trim_start(p, position, at) < at)
            goto javascript;
        if (lt == NULL)
            break;
        if (at + 3 < n && p[at + 1] == '!' && p[at + 2] == '-' && p[at + 3] == '-') {
            const uint8_t *close = find(p, at + 4, n, "-->", 3);
            if (close == NULL)
                goto javascript;
            size_t end = (size_t)(close - p) + 3;
            if (depth > 0) {
                JSValue children;
                JSValue raw = new_node(r, new_name(r->ctx, "mj-raw", 6), JS_NewObject(r->ctx), new_string(r, at, end), &children);
                Open *open = &stack[depth - 1];
                JS_DefinePropertyValueUint32(r->ctx, open->children, open->count++, raw, JS_PROP_C_W_E);
            }
            position = end;
            continue;
        }
        if (at + 1 < n && p[at + 1] == '/') {
            /* Only the open element's `</name>`. */
            if (depth == 0)
                goto javascript;
            Open *open = &stack[depth - 1];
            size_t name_end = at + 2 + open->name_length;
            if (name_end >= n || p[name_end] != '>' || memcmp(p + at + 2, p + open->name_start, open->name_length) != 0)
                goto javascript;
            JS_FreeValue(r->ctx, open->children);
            depth--;
            position = name_end + 1;
            continue;
        }
        size_t name_length = tag_name_length(p, at + 1, n);
        if (name_length == 0)
            goto javascript;
        size_t end;
        int self_closing;
        JSValue attributes = read_attributes(r, at + 1 + name_length, &end, &self_closing);
        if (JS_IsUndefined(attributes))
            goto javascript;
        const uint8_t *name = p + at + 1;
        int ending = !self_closing && is_ending_tag(r, name, name_length);
        size_t content_start = 0, content_end = 0, after = end;
        if (ending) {
            /* The first `</name` after it (a longer name starting with it too), then its `>`. */
            const uint8_t *close = end + 2 + name_length <= n ? find(p, end, n, "</", 2) : NULL;
            while (close != NULL && !((size_t)(close - p) + 2 + name_length <= n && memcmp(close + 2, name, name_length) == 0))
                close = find(p, (size_t)(close - p) + 1, n, "</", 2);
            const uint8_t *gt = close == NULL ? NULL : scan(close, '>', n - (size_t)(close - p));
            if (gt == NULL) {
                JS_FreeValue(r->ctx, attributes);
                goto javascript;
            }
            content_start = trim_start(p, end, (size_t)(close - p));
            content_end = trim_end(p, content_start, (size_t)(close - p));
            after = (size_t)(gt - p) + 1;
        }
        if (depth == 0 && !JS_IsUndefined(root)) {
            JS_FreeValue(r->ctx, attributes);
            goto javascript;
        }
        JSValue children;
        JSValue node = new_node(r, new_name(r->ctx, (const char *)name, name_length), attributes,
                                ending ? new_string(r, content_start, content_end) : JS_NewString(r->ctx, ""), &children);
        if (depth > 0) {
            Open *open = &stack[depth - 1];
            JS_DefinePropertyValueUint32(r->ctx, open->children, open->count++, node, JS_PROP_C_W_E);
        } else {
            root = node;
        }
        position = after;
        if (self_closing || ending)
            continue;
        if (depth == MAX_DEPTH)
            goto javascript;
        stack[depth].children = JS_DupValue(r->ctx, children);
        stack[depth].count = 0;
        stack[depth].name_start = at + 1;
        stack[depth].name_length = name_length;
        depth++;
    }
    if (depth == 0 && !JS_IsUndefined(root))
        return root;
javascript:
    while (depth > 0)
        JS_FreeValue(r->ctx, stack[--depth].children);
    JS_FreeValue(r->ctx, root);
    return JS_UNDEFINED;
}

static JSValue parse_mjml(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 2 || !JS_IsString(argv[0]) || !JS_IsString(argv[1]))
        return JS_ThrowTypeError(ctx, "mailrenderParseMjml takes two strings");
    size_t n, ending_length;
    const char *text = JS_ToCStringLen(ctx, &n, argv[0]);
    if (text == NULL)
        return JS_EXCEPTION;
    const char *ending = JS_ToCStringLen(ctx, &ending_length, argv[1]);
    if (ending == NULL) {
        JS_FreeCString(ctx, text);
        return JS_EXCEPTION;
    }
    JSValue result = JS_UNDEFINED;
    if (!holds_lone_surrogate((const uint8_t *)text, n)) {
        Reader r = {
            .ctx = ctx,
            .p = (const uint8_t *)text,
            .n = n,
            .ending = (const uint8_t *)ending,
            .ending_length = ending_length,
            .tag_name = JS_NewAtom(ctx, "tagName"),
            .attributes = JS_NewAtom(ctx, "attributes"),
            .children = JS_NewAtom(ctx, "children"),
            .content = JS_NewAtom(ctx, "content"),
        };
        result = parse(&r);
        JS_FreeAtom(ctx, r.tag_name);
        JS_FreeAtom(ctx, r.attributes);
        JS_FreeAtom(ctx, r.children);
        JS_FreeAtom(ctx, r.content);
    }
    JS_FreeCString(ctx, ending);
    JS_FreeCString(ctx, text);
    return result;
}

void mailrender_mjml_parse_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderParseMjml", parse_mjml, 2);
}
