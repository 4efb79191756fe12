/*
 * mjml's minifying of an Outlook conditional comment's inner markup (`minifyInner` in
 * engine/src/mjml-to-html/document.ts: `inner.replace(/(^|>)(\s+)(<|$)/gm, "$1$3")
 * .replace(/\s{2,}/gm, " ")`) in C, for the release engine's JavaScript host, as the global function
 * `mailrenderMinifyConditionalInner(inner)`: the same string, or undefined where the host leaves it
 * to the JavaScript. QuickJS's interpreter makes a match object for each run of white space the
 * expressions replace, ~6 M instructions for a newsletter's conditionals; here a few a byte. The
 * JavaScript is the definition: this follows the two expressions' matching (leftmost first, `^`
 * before `>`, the longest run of white space that `<`, the end or a line terminator follows), on
 * the inner markup's UTF-8. Left to JavaScript: markup holding a lone surrogate (which UTF-8 cannot
 * carry back).
 *
 * Installed by `mailrender_conditional_minify_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "global-function.h"
#include "quickjs.h"
#include "markup-text.h"

#define NONE ((size_t)-1)

/* Whether a line terminator (`^` and `$` under `m`: LF, CR, U+2028, U+2029) starts at p[i]. */
static int line_terminator_at(const uint8_t *p, size_t i, size_t n)
{
    return p[i] == '\n' || p[i] == '\r' || (p[i] == 0xe2 && i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9));
}

/* Whether `^` matches at i under `m`: the start, or just after a line terminator. */
static int line_start(const uint8_t *p, size_t i)
{
    return i == 0 || p[i - 1] == '\n' || p[i - 1] == '\r' || (i >= 3 && p[i - 3] == 0xe2 && p[i - 2] == 0x80 && (p[i - 1] == 0xa8 || p[i - 1] == 0xa9));
}

/*
 * Where `\s+(<|$)` stops taking white space from k: the end of the run of white space when `<` or
 * the end follows it, else the last line terminator inside the run after its first character (where
 * the greedy run backs off to, for `$`); NONE when it does not match at k.
 */
static size_t removable_end(const uint8_t *p, size_t k, size_t n)
{
    size_t last_break = NONE, r = k, w;
    while (r < n && (w = space_at(p, r, n)) > 0) {
        if (r > k && line_terminator_at(p, r, n))
            last_break = r;
        r += w;
    }
    if (r == k)
        return NONE;
    return r == n || p[r] == '<' ? r : last_break;
}

/* `.replace(/(^|>)(\s+)(<|$)/gm, "$1$3")`: each match's white space dropped. Returns the length written to out. */
static size_t drop_space_between_tags(const uint8_t *p, size_t n, uint8_t *out)
{
    size_t written = 0, copied = 0, i = 0;
    while (i < n) {
        size_t from = NONE, to = NONE;
        if (line_start(p, i) && (to = removable_end(p, i, n)) != NONE)
            from = i;
        else if (p[i] == '>' && (to = removable_end(p, i + 1, n)) != NONE)
            from = i + 1;
        if (from == NONE) {
            /* A byte at a time: no test above holds inside a multi-byte character. */
            i++;
            continue;
        }
        memcpy(out + written, p + copied, from - copied);
        written += from - copied;
        copied = to;
        /* The search goes on after the match: after its `<`, or at the line terminator `$` matched before. */
        i = to < n && p[to] == '<' ? to + 1 : to;
    }
    memcpy(out + written, p + copied, n - copied);
    return written + n - copied;
}

/* `.replace(/\s{2,}/gm, " ")` in place: each run of two or more white space characters as one space. */
static size_t collapse_space_runs(uint8_t *p, size_t n)
{
    size_t written = 0, i = 0, w;
    while (i < n) {
        if ((w = space_at(p, i, n)) == 0) {
            p[written++] = p[i++];
            continue;
        }
        size_t run = i + w, characters = 1;
        while (run < n && (w = space_at(p, run, n)) > 0) {
            run += w;
            characters++;
        }
        if (characters >= 2) {
            p[written++] = ' ';
        } else {
            memmove(p + written, p + i, run - i);
            written += run - i;
        }
        i = run;
    }
    return written;
}

static JSValue minify_conditional_inner(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t n;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderMinifyConditionalInner", &n);
    if (text == NULL)
        return JS_EXCEPTION;
    const uint8_t *p = (const uint8_t *)text;
    JSValue result = JS_UNDEFINED;
    if (!holds_lone_surrogate(p, n)) {
        /* From the engine's heap, within its cap (--max-memory), as the JavaScript's strings are. */
        uint8_t *out = js_malloc(ctx, n + 1);
        if (out == NULL) {
            result = JS_EXCEPTION;
        } else {
            size_t length = collapse_space_runs(out, drop_space_between_tags(p, n, out));
            result = JS_NewStringLen(ctx, (const char *)out, length);
            js_free(ctx, out);
        }
    }
    JS_FreeCString(ctx, text);
    return result;
}

void mailrender_conditional_minify_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderMinifyConditionalInner", minify_conditional_inner, 1);
}
