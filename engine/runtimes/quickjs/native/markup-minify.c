/*
 * The html and mjml targets' minifier (engine/src/targets/minify.ts, `minifyMarkup`) in C, over a
 * document's UTF-8 (markup-passes.h): the same text, or refused where the JavaScript minifier must take
 * the document. In QuickJS's interpreter the minifier's passes over a ~70,000-character document
 * are ~10% of a new template's render; here they are a few instructions a byte. The JavaScript is
 * the definition: this follows it step by step (the names are its functions'), and the tests check
 * that the release executable's and Node's host's output equal the library's on every fixture and
 * on generated texts made of every kind of white space.
 *
 * White space is what JavaScript's `\s` and `trim` take (WhiteSpace and LineTerminator: 09-0D, 20,
 * A0, 1680, 2000-200A, 2028, 2029, 202F, 205F, 3000, FEFF). Left to JavaScript: a document holding
 * U+0000 (the placeholder byte below), U+E002 (the JavaScript's placeholder character, which that
 * minifier would take for its own) or a lone surrogate (which UTF-8 cannot carry back).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "markup-passes.h"
#include "markup-text.h"

typedef struct {
    uint8_t *p;
    size_t n;
} Out;

static void put(Out *out, const uint8_t *s, size_t n)
{
    memcpy(out->p + out->n, s, n);
    out->n += n;
}

static int ascii_lower(uint8_t b)
{
    return b >= 'A' && b <= 'Z' ? b | 0x20 : b;
}

static int is_word(uint8_t b)
{
    return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || b == '_';
}

/* Whether `name` (lowercase ASCII) stands at p[at] in any case. */
static int has_name(const uint8_t *p, size_t at, size_t n, const char *name, size_t length)
{
    if (at + length > n)
        return 0;
    for (size_t i = 0; i < length; i++) {
        if (ascii_lower(p[at + i]) != (uint8_t)name[i])
            return 0;
    }
    return 1;
}

typedef struct {
    const char *name;
    size_t length;
} Name;
#define NAME(literal) {literal, sizeof(literal) - 1}

static const Name PROTECTED[] = {NAME("style"), NAME("script"), NAME("mj-style"), NAME("pre"), NAME("textarea")};

/*
 * protectedBlock: the comment or protected element (`<(style|script|mj-style|pre|textarea)\b[^>]*>`
 * up to its first `<\/name\s*>`, in any case) that starts at `at`: its end, and whether it is kept
 * as written (pre, textarea) rather than tidied. 0 when there is none.
 */
static size_t protected_block(const uint8_t *p, size_t at, size_t n, int *verbatim)
{
    *verbatim = 0;
    if (at + 4 <= n && memcmp(p + at, "<!--", 4) == 0) {
        const uint8_t *close = find(p, at + 4, n, "-->", 3);
        return close == NULL ? 0 : (size_t)(close - p) + 3;
    }
    for (size_t t = 0; t < sizeof(PROTECTED) / sizeof(PROTECTED[0]); t++) {
        const char *name = PROTECTED[t].name;
        size_t length = PROTECTED[t].length, after = at + 1 + length;
        if (!has_name(p, at + 1, n, name, length) || (after < n && is_word(p[after])))
            continue;
        const uint8_t *open_end = after < n ? scan(p + after, '>', n - after) : NULL;
        if (open_end == NULL)
            return 0;
        for (const uint8_t *end = find(p, (size_t)(open_end - p) + 1, n, "</", 2); end != NULL; end = find(p, (size_t)(end - p) + 1, n, "</", 2)) {
            size_t i = (size_t)(end - p) + 2;
            if (!has_name(p, i, n, name, length))
                continue;
            i = trim_start(p, i + length, n);
            if (i < n && p[i] == '>') {
                *verbatim = t == 3 || t == 4;
                return i + 1;
            }
        }
        return 0;
    }
    return 0;
}

/* tidyLines: a block's lines trimmed, blank ones dropped. */
static void tidy_lines(Out *out, const uint8_t *p, size_t start, size_t end)
{
    size_t written = 0;
    while (start <= end) {
        const uint8_t *nl = scan(p + start, '\n', end - start);
        size_t line_end = nl == NULL ? end : (size_t)(nl - p);
        size_t s = trim_start(p, start, line_end), e = trim_end(p, s, line_end);
        if (s < e) {
            if (written++ > 0)
                put(out, (const uint8_t *)"\n", 1);
            put(out, p + s, e - s);
        }
        start = line_end + 1;
    }
}

static const uint8_t PLACEHOLDER[3] = {'<', 0, '>'};
/* Room for the kept blocks of an n-byte document: each at least 7 bytes, and a NUL after each. */
#define KEPT_SIZE(n) ((n) + (n) / 4 + 1)

/*
 * maskProtectedAndTrimTagEnds: comments and protected elements → PLACEHOLDER (the block, tidied
 * unless pre or textarea, appended to `kept`), and the white space before the `>` or `/>` ending a
 * start tag elsewhere removed.
 */
static void mask(const uint8_t *p, size_t n, Out *masked, Out *kept)
{
    size_t copied = 0;
    const uint8_t *lt = scan(p, '<', n);
    while (lt != NULL) {
        size_t at = (size_t)(lt - p);
        const uint8_t *next_lt = at + 1 < n ? scan(p + at + 1, '<', n - at - 1) : NULL;
        size_t next_at = next_lt == NULL ? n : (size_t)(next_lt - p);
        lt = next_lt;
        if (at < copied || at + 1 >= n || p[at + 1] == '/')
            continue;
        int verbatim;
        size_t end = protected_block(p, at, n, &verbatim);
        if (end > 0) {
            put(masked, p + copied, at - copied);
            put(masked, PLACEHOLDER, sizeof(PLACEHOLDER));
            if (verbatim)
                put(kept, p + at, end - at);
            else
                tidy_lines(kept, p, at, end);
            put(kept, PLACEHOLDER + 1, 1); /* each kept block ends with a NUL byte */
            copied = end;
            continue;
        }
        uint8_t letter = p[at + 1] | 0x20;
        if (letter < 'a' || letter > 'z')
            continue;
        const uint8_t *close = at + 2 < n ? scan(p + at + 2, '>', n - at - 2) : NULL;
        if (close == NULL || (size_t)(close - p) > next_at)
            continue;
        size_t space_end = (size_t)(close - p);
        if (p[space_end - 1] == '/')
            space_end--;
        if (space_end <= at + 2 || space_before(p, at + 2, space_end) == 0)
            continue;
        size_t space_start = trim_end(p, at + 2, space_end);
        put(masked, p + copied, space_start - copied);
        copied = space_end;
    }
    put(masked, p + copied, n - copied);
}

static int is_line_space(uint8_t b)
{
    return b == ' ' || b == '\t' || b == '\r';
}

/*
 * collapseLineBreaks: white space holding a line break removed between a `>` and a `<`, a space
 * elsewhere; a line's leading white space and lines of white space alone belong to the break before them.
 */
static void collapse_line_breaks(const uint8_t *p, size_t n, Out *out)
{
    int last_code = -1;
    size_t start = 0;
    for (int first = 1;; first = 0) {
        const uint8_t *nl = scan(p + start, '\n', n - start);
        int last = nl == NULL;
        size_t line_end = last ? n : (size_t)(nl - p), s = start, e = line_end;
        start = line_end + 1;
        if (!first) {
            s = trim_start(p, s, e);
            if (s == e && !last)
                continue;
            if (!(last_code == '>' && s < e && p[s] == '<'))
                put(out, (const uint8_t *)" ", 1);
        }
        if (!last) {
            while (e > s && is_line_space(p[e - 1]))
                e--;
        }
        last_code = s < e ? p[e - 1] : -1;
        put(out, p + s, e - s);
        if (last)
            return;
    }
}

/*
 * Where, from i on, two blanks (spaces or tabs) may stand side by side, found a block of positions
 * at a time: no two stand side by side in p[i, the answer), so that stretch is its own collapse.
 */
#ifdef __wasm_simd128__
static size_t blank_pair_at(const uint8_t *p, size_t i, size_t n)
{
    const v128_t spaces = wasm_i8x16_splat(' '), tabs = wasm_i8x16_splat('\t');
    for (; i + 17 <= n; i += 16) {
        v128_t here = wasm_v128_load(p + i), next = wasm_v128_load(p + i + 1);
        v128_t blank_here = wasm_v128_or(wasm_i8x16_eq(here, spaces), wasm_i8x16_eq(here, tabs));
        v128_t blank_next = wasm_v128_or(wasm_i8x16_eq(next, spaces), wasm_i8x16_eq(next, tabs));
        if (wasm_v128_any_true(wasm_v128_and(blank_here, blank_next)))
            return i;
    }
    return i;
}
#else
static size_t blank_pair_at(const uint8_t *p, size_t i, size_t n)
{
    const uint64_t spaces = 0x2020202020202020ull, tabs = 0x0909090909090909ull;
    for (; i + 9 <= n; i += 8) {
        uint64_t here, next;
        memcpy(&here, p + i, 8);
        memcpy(&next, p + i + 1, 8);
        if ((zero_bytes(here ^ spaces) | zero_bytes(here ^ tabs)) & (zero_bytes(next ^ spaces) | zero_bytes(next ^ tabs)))
            return i;
    }
    return i;
}
#endif

/* collapseBlankRuns: runs of two or more spaces and tabs → one space. */
static void collapse_blank_runs(const uint8_t *p, size_t n, Out *out)
{
    for (size_t i = 0; i < n;) {
        size_t clear = blank_pair_at(p, i, n);
        put(out, p + i, clear - i);
        i = clear;
        if (i >= n)
            break;
        if (p[i] != ' ' && p[i] != '\t') {
            out->p[out->n++] = p[i++];
            continue;
        }
        size_t run = i;
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
            i++;
        if (i - run >= 2)
            out->p[out->n++] = ' ';
        else
            out->p[out->n++] = p[run];
    }
}

/* restoreProtected: each PLACEHOLDER → the next kept block. */
static void restore(const uint8_t *p, size_t n, const uint8_t *kept, Out *out)
{
    size_t copied = 0;
    for (const uint8_t *at = find(p, 0, n, (const char *)PLACEHOLDER, 3); at != NULL; at = find(p, copied, n, (const char *)PLACEHOLDER, 3)) {
        size_t i = (size_t)(at - p);
        put(out, p + copied, i - copied);
        size_t length = strlen((const char *)kept);
        put(out, kept, length);
        kept += length + 1;
        copied = i + 3;
    }
    put(out, p + copied, n - copied);
}

/* Whether the document is one the JavaScript minifier must take (see the top). */
static int left_to_javascript(const uint8_t *p, size_t n)
{
    for (size_t i = next_unusual(p, 0, n); i < n; i = next_unusual(p, i + 1, n)) {
        if (p[i] == 0 || lone_surrogate_at(p, i, n) || (p[i] == 0xee && i + 2 < n && p[i + 1] == 0x80 && p[i + 2] == 0x82))
            return 1;
    }
    return 0;
}

/* The minified document at `memory` (mailrender_minify_memory(n) bytes): where it ends up and its length. */
static Out minify(const uint8_t *p, size_t n, uint8_t *memory)
{
    /* Three regions: the masked document, then each step's output in turn, is at most n bytes (a
     * placeholder is shorter than its block, and no step lengthens what it reads; put back, each
     * block is at most what it was); the kept blocks at most n plus one NUL per block of 7 or more. */
    Out masked = {memory, 0}, kept = {memory + n, 0};
    mask(p, n, &masked, &kept);
    Out collapsed = {memory + n + KEPT_SIZE(n), 0};
    collapse_line_breaks(masked.p, masked.n, &collapsed);
    Out blank = {masked.p, 0};
    collapse_blank_runs(collapsed.p, collapsed.n, &blank);
    size_t s = trim_start(blank.p, 0, blank.n), e = trim_end(blank.p, s, blank.n);
    if (kept.n == 0)
        return (Out){blank.p + s, e - s};
    Out restored = {collapsed.p, 0};
    restore(blank.p + s, e - s, kept.p, &restored);
    return restored;
}

int mailrender_minify_refuses(const uint8_t *p, size_t n)
{
    return left_to_javascript(p, n);
}

size_t mailrender_minify_memory(size_t n)
{
    return 2 * n + KEPT_SIZE(n);
}

const uint8_t *mailrender_minify(const uint8_t *p, size_t n, uint8_t *memory, size_t *length)
{
    Out minified = n == 0 ? (Out){memory, 0} : minify(p, n, memory);
    *length = minified.n;
    return minified.p;
}
