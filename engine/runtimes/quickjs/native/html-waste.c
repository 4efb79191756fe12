/*
 * The html target's clean-up (engine/src/targets/html-waste.ts, `removeHtmlWaste`) in C, over a
 * document's UTF-8 (markup-passes.h): the same text, or refused where the JavaScript must take the
 * document. Under QuickJS's interpreter the clean-up's
 * scans and regular expressions over the newsletter's html were ~15% of a new template's render;
 * here they are a few instructions a byte. The JavaScript is the definition: this follows it step
 * by step (the names are its functions'), on the document's UTF-8 (every rule starts and ends at
 * ASCII, so byte offsets stand for its positions), each regular expression as a match that cannot
 * backtrack into another result (the comment at each says why), `\s` and `trim` as JavaScript's
 * (markup-text.h). As there, every step reads the document as written and marks its edits; they
 * are applied once, by position, and at one position in the order they were marked, an edit
 * starting inside one applied before it dropped (src/targets/edits.ts).
 *
 * Left to JavaScript: a document holding U+0000 or a lone surrogate (which UTF-8 cannot carry
 * back), and one where a heading's wrapper is compared with its heading and a property name in
 * their styles is not ASCII (`toLowerCase` is Unicode's there).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "markup-passes.h"
#include "markup-text.h"

/* No position: a failed match, or a literal not found. */
#define NO SIZE_MAX
#define LENGTH(literal) (sizeof(literal) - 1)

typedef struct {
    size_t start, end;   /* the region replaced */
    size_t text, length; /* by texts[text, text + length) */
} Edit;

typedef struct {
    const MarkupHeap *heap;
    const uint8_t *p;
    size_t n;
    Edit *edits;
    size_t count, capacity;
    uint8_t *texts;
    size_t texts_n, texts_capacity;
    int failed;  /* out of memory */
    int refused; /* left to JavaScript */
} Waste;

/* Room for `more` items after `used` in *items (room for *capacity items of `size` bytes), from the heap. */
static void *reserve(Waste *w, void *items, size_t *capacity, size_t used, size_t more, size_t size)
{
    if (w->failed || used + more <= *capacity)
        return items;
    size_t grown = (used + more) * 2 + 16;
    void *moved = w->heap->resize(w->heap->opaque, items, grown * size);
    if (moved == NULL) {
        w->failed = 1;
        return items;
    }
    *capacity = grown;
    return moved;
}

/* Appended to the replacement text being written (mark's `from` says where it began). */
static void text(Waste *w, const void *s, size_t n)
{
    if (n == 0)
        return;
    w->texts = reserve(w, w->texts, &w->texts_capacity, w->texts_n, n, 1);
    if (!w->failed) {
        memcpy(w->texts + w->texts_n, s, n);
        w->texts_n += n;
    }
}

/* DocumentEdits.replace: [start, end) → the text written since `from`. */
static void mark(Waste *w, size_t start, size_t end, size_t from)
{
    w->edits = reserve(w, w->edits, &w->capacity, w->count, 1, sizeof(Edit));
    if (w->failed)
        return;
    w->edits[w->count] = (Edit){start, end, from, w->texts_n - from};
    w->count++;
}

static void remove_region(Waste *w, size_t start, size_t end)
{
    mark(w, start, end, w->texts_n);
}

/* The next occurrence of a literal at `from` or after, found by its two bytes at `key` (the rarer in an html document the better), or NO. */
static size_t next_by(const Waste *w, size_t from, size_t n, const char *literal, size_t length, size_t key)
{
    const uint8_t *at = find_by(w->p, from, n, literal, length, key);
    return at == NULL ? NO : (size_t)(at - w->p);
}

/* next_by its first two bytes. */
static size_t next(const Waste *w, size_t from, size_t n, const char *literal, size_t length)
{
    return next_by(w, from, n, literal, length, 0);
}

/* A sticky literal of `length` bytes: past it, or NO. */
static size_t lit_of(const uint8_t *p, size_t n, size_t i, const char *literal, size_t length)
{
    return i != NO && i <= n && n - i >= length && memcmp(p + i, literal, length) == 0 ? i + length : NO;
}

/* lit_of a string literal, its length counted when compiled (built for size, the calls to strlen were 4% of the WebAssembly's time). */
#define lit(p, n, i, literal) lit_of(p, n, i, literal, LENGTH(literal))

/* `\s*` (at_least 0) or `\s+` (1), greedy: what follows it in every expression here is not white space. */
static size_t spaces(const uint8_t *p, size_t n, size_t i, int at_least)
{
    if (i == NO)
        return NO;
    size_t start = i, k;
    while (i < n && (k = space_at(p, i, n)) > 0)
        i += k;
    return i - start < (size_t)at_least ? NO : i;
}

/* `[^c]*c` with the `c` not consumed: where the first `c` at i or after stands, or NO. */
static size_t until(const uint8_t *p, size_t n, size_t i, uint8_t c)
{
    if (i == NO || i >= n)
        return NO;
    const uint8_t *at = scan(p + i, c, n - i);
    return at == NULL ? NO : (size_t)(at - p);
}

/* One of the words (none a prefix of another), sticky. */
static size_t one_of(const uint8_t *p, size_t n, size_t i, const char *const *words, size_t count)
{
    for (size_t k = 0; i != NO && k < count; k++) {
        size_t end = lit_of(p, n, i, words[k], strlen(words[k]));
        if (end != NO)
            return end;
    }
    return NO;
}

/* The last '<' or '>' before `at` (from `from` on), or NO. */
static size_t last_angle(const uint8_t *p, size_t from, size_t at)
{
    while (at > from) {
        at--;
        if (p[at] == '<' || p[at] == '>')
            return at;
    }
    return NO;
}

static const char *const VERTICAL[] = {"top", "middle", "bottom"};

/*
 * removeRepeatedBackgrounds. `([^;"'{}()]+);` cannot end earlier than the first character of that
 * class (a shorter group is followed by one that is not `;`), so the group is that run.
 */
static void remove_repeated_backgrounds(Waste *w)
{
    const uint8_t *p = w->p;
    size_t n = w->n, matched = 0;
    for (size_t at = next_by(w, 0, n, "background:", 11, 9); at != NO; at = next_by(w, at + 11, n, "background:", 11, 9)) {
        if (at < matched)
            continue;
        size_t value = at + 11, i = value;
        while (i < n && p[i] != ';' && p[i] != '"' && p[i] != '\'' && p[i] != '{' && p[i] != '}' && p[i] != '(' && p[i] != ')')
            i++;
        size_t length = i - value;
        i = lit(p, n, i, ";background-color:");
        if (length == 0 || i == NO || n - i < length || memcmp(p + i, p + value, length) != 0)
            continue;
        i += length;
        size_t semicolon = i < n && p[i] == ';';
        matched = i + semicolon;
        size_t from = w->texts_n;
        text(w, "background-color:", 17);
        text(w, p + value, length);
        text(w, ";", semicolon);
        mark(w, at, matched, from);
    }
}

/* removeEmptyAttributes: the pieces between the occurrences of `=""`, each read back to its last `<` or `>`. */
static void remove_empty_attributes(Waste *w)
{
    const uint8_t *p = w->p;
    size_t piece = 0;
    int in_tag = 0;
    for (size_t at = next_by(w, 0, w->n, "=\"\"", 3, 1); at != NO; at = next_by(w, at + 3, w->n, "=\"\"", 3, 1)) {
        size_t angle = last_angle(p, piece, at);
        if (angle != NO)
            in_tag = p[angle] == '<';
        if (in_tag && at - piece >= 6 && (memcmp(p + at - 6, " style", 6) == 0 || memcmp(p + at - 6, " class", 6) == 0))
            remove_region(w, at - 6, at + 3);
        piece = at + 3;
    }
}

/* removeTbodyTags. */
static void remove_tbody_tags(Waste *w)
{
    const uint8_t *p = w->p;
    for (size_t at = next_by(w, 0, w->n, "tbody>", 6, 4); at != NO; at = next_by(w, at + 6, w->n, "tbody>", 6, 4)) {
        if (at >= 2 && p[at - 2] == '<' && p[at - 1] == '/')
            remove_region(w, at - 2, at + 6);
        else if (at >= 1 && p[at - 1] == '<')
            remove_region(w, at - 1, at + 6);
    }
}

/*
 * removeUnusedMenuRules. Each `[^x]*x` ends at the first `x`; a repetition of
 * `[^{}]*\{[^}]*\}` is taken while the next brace is `{` (fewer would leave `\s*\}` before a run that
 * holds no `}`).
 */
static void remove_unused_menu_rules(Waste *w)
{
    const uint8_t *p = w->p;
    size_t n = w->n;
    size_t at = next_by(w, 0, n, "noinput.mj-menu-checkbox {", 26, 1);
    if (at == NO || next_by(w, 0, n, "class=\"mj-menu-checkbox\"", 24, 13) != NO)
        return;
    size_t i = lit(p, n, until(p, n, at + 26, '}'), "}");
    i = lit(p, n, spaces(p, n, i, 0), "@media");
    i = lit(p, n, until(p, n, i, '{'), "{");
    while (i != NO) {
        size_t j = i;
        while (j < n && p[j] != '{' && p[j] != '}')
            j++;
        if (j >= n || p[j] != '{' || (j = until(p, n, j + 1, '}')) == NO)
            break;
        i = j + 1;
    }
    i = spaces(p, n, lit(p, n, spaces(p, n, i, 0), "}"), 0);
    if (i != NO)
        remove_region(w, at, i);
}

/* isWholeZeroValue. */
static int whole_zero_value(const uint8_t *p, size_t n, size_t at)
{
    if (at == 0 || at + 3 >= n)
        return 0;
    uint8_t before = p[at - 1], after = p[at + 3];
    return (before == ':' || before == ' ') && (after == ';' || after == ' ' || after == '"' || after == '!');
}

/* shortenZeroLengths: the last `<` and `>` before a zero are the nearer of the two. */
static void shorten_zero_lengths(Waste *w)
{
    const uint8_t *p = w->p;
    size_t n = w->n, text_until = 0;
    for (size_t at = next(w, 0, n, "0px", 3); at != NO; at = next(w, at + 3, n, "0px", 3)) {
        if (at < text_until || !whole_zero_value(p, n, at))
            continue;
        size_t open = last_angle(p, 0, at);
        if (open == NO || p[open] == '>') {
            text_until = until(p, n, at, '<');
            if (text_until == NO)
                return;
            continue;
        }
        size_t quote = at;
        while (quote > open && p[quote] != '"')
            quote--;
        if (quote > open && quote >= 7 && memcmp(p + quote - 7, " style=", 7) == 0 && scan(p + quote, '(', at - quote) == NULL)
            remove_region(w, at + 1, at + 3);
    }
}

static const char *const ALIGN[] = {"left", "right", "center"};
static const char *const DIRECTION[] = {"ltr", "rtl"};

static int is_digit(uint8_t b)
{
    return b >= '0' && b <= '9';
}

/* The end of a run of digits and `also` at i (NO when empty or i is NO). */
static size_t digits(const uint8_t *p, size_t n, size_t i, uint8_t also)
{
    if (i == NO)
        return NO;
    size_t start = i;
    while (i < n && (is_digit(p[i]) || p[i] == also))
        i++;
    return i == start ? NO : i;
}

/* `<table\s+border="0"\s+cellpadding="0"\s+cellspacing="0"\s+role="presentation"` at i (after `\s*`). */
static size_t column_table_start(const uint8_t *p, size_t n, size_t i)
{
    i = lit(p, n, spaces(p, n, i, 0), "<table");
    i = lit(p, n, spaces(p, n, i, 1), "border=\"0\"");
    i = lit(p, n, spaces(p, n, i, 1), "cellpadding=\"0\"");
    i = lit(p, n, spaces(p, n, i, 1), "cellspacing=\"0\"");
    return lit(p, n, spaces(p, n, i, 1), "role=\"presentation\"");
}

/*
 * emptyColumnAt. The runs `[0-9-]+` and `[0-9.]+` end where the class of their next literal's
 * character does; `(?:px)?` is followed by `;`, the optional `<tbody>…` by `</table>`, neither of
 * which the other choice could give.
 */
static int empty_column_at(Waste *w, size_t at)
{
    const uint8_t *p = w->p;
    size_t n = w->n;
    size_t i = lit(p, n, spaces(p, n, at + 4, 1), "class=\"");
    size_t name = i;
    i = digits(p, n, lit(p, n, i, "mj-column-per-"), '-');
    size_t name_end = i;
    i = lit(p, n, i, " mj-outlook-group-fix\"");
    i = lit(p, n, spaces(p, n, i, 1), "style=\"font-size:0");
    if (lit(p, n, i, "px") != NO)
        i += 2;
    i = one_of(p, n, lit(p, n, i, ";text-align:"), ALIGN, 3);
    i = one_of(p, n, lit(p, n, i, ";direction:"), DIRECTION, 2);
    i = lit(p, n, i, ";display:inline-block;vertical-align:");
    size_t align = i;
    i = one_of(p, n, i, VERTICAL, 3);
    size_t align_end = i;
    i = lit(p, n, i, ";width:");
    size_t width = i;
    i = lit(p, n, digits(p, n, i, '.'), "%");
    size_t width_end = i;
    i = lit(p, n, spaces(p, n, lit(p, n, i, ";\""), 0), ">");
    i = column_table_start(p, n, i);
    i = lit(p, n, spaces(p, n, i, 1), "style=\"vertical-align:");
    if (i == NO || n - i < align_end - align || memcmp(p + i, p + align, align_end - align) != 0)
        return 0;
    i = lit(p, n, i + (align_end - align), ";\"");
    i = lit(p, n, spaces(p, n, i, 1), "width=\"100%\"");
    i = spaces(p, n, lit(p, n, spaces(p, n, i, 0), ">"), 0);
    size_t tbody = spaces(p, n, lit(p, n, spaces(p, n, lit(p, n, i, "<tbody>"), 0), "</tbody>"), 0);
    if (tbody != NO)
        i = tbody;
    i = lit(p, n, spaces(p, n, lit(p, n, i, "</table>"), 0), "</div>");
    if (i == NO)
        return 0;
    size_t from = w->texts_n;
    text(w, "<div class=\"", 12);
    text(w, p + name, name_end - name);
    static const char STYLE[] = " mj-outlook-group-fix\" style=\"font-size:0;display:inline-block;vertical-align:";
    text(w, STYLE, LENGTH(STYLE));
    text(w, p + align, align_end - align);
    text(w, ";width:", 7);
    text(w, p + width, width_end - width);
    text(w, ";\"></div>", 9);
    mark(w, at, i, from);
    return 1;
}

/* columnTableAt: every run `[^"]*` ends at the first `"`. */
static int column_table_at(Waste *w, size_t at)
{
    const uint8_t *p = w->p;
    size_t n = w->n;
    size_t i = lit(p, n, spaces(p, n, at + 4, 1), "class=\"mj-column-per-");
    i = lit(p, n, until(p, n, i, '"'), "\"");
    i = lit(p, n, spaces(p, n, i, 1), "style=\"");
    i = lit(p, n, until(p, n, i, '"'), "\"");
    i = lit(p, n, spaces(p, n, i, 0), ">");
    size_t kept = column_table_start(p, n, i);
    i = lit(p, n, spaces(p, n, kept, 1), "style=\"vertical-align:");
    size_t rest = lit(p, n, one_of(p, n, i, VERTICAL, 3), ";\"");
    i = lit(p, n, spaces(p, n, lit(p, n, spaces(p, n, rest, 1), "width=\"100%\""), 0), ">");
    if (i == NO)
        return 0;
    remove_region(w, kept, rest);
    return 1;
}

static const char *const INHERITED_TEXT[] = {
    "font-family", "font-size", "line-height", "text-align", "color", "font-weight", "font-style", "letter-spacing", "text-transform",
};

/* Whether p[s, e) is `name` in ASCII letters of any case (the names here are lowercase). */
static int same_name(const uint8_t *p, size_t s, size_t e, const uint8_t *name, size_t length)
{
    if (e - s != length)
        return 0;
    for (size_t i = 0; i < length; i++) {
        uint8_t b = p[s + i];
        if ((b >= 'A' && b <= 'Z' ? b | 0x20 : b) != (name[i] >= 'A' && name[i] <= 'Z' ? name[i] | 0x20 : name[i]))
            return 0;
    }
    return 1;
}

/*
 * declarationsOf, one declaration at a time: the next one of style[*at, end) that is not blank,
 * its name and value trimmed; 1, or 0 at the end; -1 when it is not `name:value`; -2 when its name
 * is not ASCII (refused).
 */
static int next_declaration(const uint8_t *p, size_t *at, size_t end, size_t name[2], size_t value[2])
{
    while (*at <= end) {
        const uint8_t *semicolon = *at < end ? scan(p + *at, ';', end - *at) : NULL;
        size_t s = *at, e = semicolon == NULL ? end : (size_t)(semicolon - p);
        *at = e + 1;
        size_t ts = trim_start(p, s, e);
        if (trim_end(p, ts, e) == ts)
            continue;
        const uint8_t *colon = scan(p + s, ':', e - s);
        if (colon == NULL)
            return -1;
        size_t c = (size_t)(colon - p);
        name[0] = trim_start(p, s, c);
        name[1] = trim_end(p, name[0], c);
        for (size_t i = name[0]; i < name[1]; i++) {
            if (p[i] >= 0x80)
                return -2;
        }
        value[0] = trim_start(p, c + 1, e);
        value[1] = trim_end(p, value[0], e);
        return 1;
    }
    return 0;
}

/* Whether the heading's declarations in p[s, e) set `name` (p[ns, ne)): 1, 0, or next_declaration's -1 or -2. */
static int sets(const uint8_t *p, size_t s, size_t e, size_t ns, size_t ne)
{
    size_t name[2], value[2];
    int found = 0, r;
    while ((r = next_declaration(p, &s, e, name, value)) == 1)
        found |= same_name(p, name[0], name[1], p + ns, ne - ns);
    return r < 0 ? r : found;
}

/*
 * overridesAll: 1, 0, or -2 (refused). The heading's font size is its last `font-size` (a Map keeps
 * the last value set), `^\d+(?:\.\d+)?px$` and not `0px`.
 */
static int overrides_all(const uint8_t *p, size_t ws, size_t we, size_t hs, size_t he)
{
    size_t name[2], value[2], at = hs, size[2] = {NO, NO};
    int r;
    while ((r = next_declaration(p, &at, he, name, value)) == 1) {
        if (same_name(p, name[0], name[1], (const uint8_t *)"font-size", 9)) {
            size[0] = value[0];
            size[1] = value[1];
        }
    }
    int heading = r, wrapper;
    at = ws;
    while ((wrapper = next_declaration(p, &at, we, name, value)) == 1) {
    }
    if (heading == -2 || wrapper == -2)
        return -2;
    if (heading == -1 || wrapper == -1 || size[0] == NO)
        return 0;
    size_t i = digits(p, size[1], size[0], 0);
    if (i != NO && i < size[1] && p[i] == '.')
        i = digits(p, size[1], i + 1, 0);
    if (lit(p, size[1], i, "px") != size[1] || (size[1] - size[0] == 3 && memcmp(p + size[0], "0px", 3) == 0))
        return 0;
    at = ws;
    while ((r = next_declaration(p, &at, we, name, value)) == 1) {
        int inherited = 0;
        for (size_t k = 0; k < sizeof(INHERITED_TEXT) / sizeof(INHERITED_TEXT[0]); k++)
            inherited |= same_name(p, name[0], name[1], (const uint8_t *)INHERITED_TEXT[k], strlen(INHERITED_TEXT[k]));
        int set = inherited ? sets(p, hs, he, name[0], name[1]) : 0;
        if (set != 1)
            return set;
    }
    return 1;
}

/*
 * headingWrapperAt; -1 when refused. The lazy `(?:\s+[a-z-]+="[^"]*")*?\s+style="` takes the first
 * style attribute in a run of `name="value"` attributes: were what follows it (`[^"]*"[^>]*>`) not
 * there, it is not there after any later attribute either.
 */
static int heading_wrapper_at(Waste *w, size_t at)
{
    const uint8_t *p = w->p;
    size_t n = w->n;
    size_t i = lit(p, n, spaces(p, n, at + 4, 1), "style=\"");
    size_t ws = i, we = until(p, n, i, '"');
    i = lit(p, n, we, "\"");
    size_t end_of_tag = spaces(p, n, i, 0);
    i = lit(p, n, spaces(p, n, lit(p, n, end_of_tag, ">"), 0), "<h");
    if (i == NO || i >= n || p[i] < '1' || p[i] > '6')
        return 0;
    uint8_t level = p[i++];
    size_t hs = NO, he = NO;
    while (hs == NO) {
        i = spaces(p, n, i, 1);
        size_t style = lit(p, n, i, "style=\"");
        if (style != NO && (he = until(p, n, style, '"')) != NO) {
            hs = style;
            i = until(p, n, he + 1, '>');
            if (i == NO)
                return 0;
            i++;
            break;
        }
        size_t name = i;
        while (i != NO && i < n && ((p[i] >= 'a' && p[i] <= 'z') || p[i] == '-'))
            i++;
        if (i == NO || i == name)
            return 0;
        i = lit(p, n, i, "=\"");
        i = until(p, n, i, '"');
        if (i == NO)
            return 0;
        i++;
    }
    char close[6] = {'<', '/', 'h', (char)level, '>', 0};
    size_t closed = next(w, i, n, close, 5);
    if (closed == NO || lit(p, n, spaces(p, n, closed + 5, 0), "</div>") == NO)
        return 0;
    int overrides = overrides_all(p, ws, we, hs, he);
    if (overrides == 1)
        remove_region(w, at + 4, end_of_tag);
    return overrides == -2 ? -1 : 0;
}

/* leanerDivs. */
static void leaner_divs(Waste *w)
{
    for (size_t at = next(w, 0, w->n, "<div", 4); at != NO && !w->refused; at = next(w, at + 4, w->n, "<div", 4)) {
        if (!empty_column_at(w, at) && !column_table_at(w, at) && heading_wrapper_at(w, at) < 0)
            w->refused = 1;
    }
}

/* Whether p[at - length, at) is `literal`. */
static int ends_with(const uint8_t *p, size_t at, const char *literal, size_t length)
{
    return at >= length && memcmp(p + at - length, literal, length) == 0;
}

/* removeZeroCellPadding. */
static void remove_zero_cell_padding(Waste *w)
{
    const uint8_t *p = w->p;
    size_t n = w->n;
    for (size_t at = next(w, 0, n, ";padding:0", 10); at != NO; at = next(w, at + 10, n, ";padding:0", 10)) {
        int size_in_px = ends_with(p, at, "font-size:0px", 13);
        size_t font_size = size_in_px ? at - 13 : ends_with(p, at, "font-size:0", 11) ? at - 11 : NO;
        size_t zero_end = at + 10;
        int padding_in_px = lit(p, n, zero_end, "px;") != NO;
        size_t after = padding_in_px ? zero_end + 3 : lit(p, n, zero_end, ";");
        if (font_size == NO || after == NO)
            continue;
        int block = lit(p, n, after, "word-break:break-word;") != NO;
        int section = (ends_with(p, font_size, " style=\"direction:ltr;", 22) || ends_with(p, font_size, " style=\"direction:rtl;", 22)) &&
                      lit(p, n, after, "text-align:") != NO;
        size_t tag = last_angle(p, 0, font_size);
        if (!(block || section) || tag == NO || p[tag] != '<' || lit(p, n, tag, "<td") == NO)
            continue;
        /* The value of the last ` style="` in the tag (the `f` at font_size cannot be inside one). */
        size_t style = font_size;
        while (style >= tag + 8 && memcmp(p + style - 8, " style=\"", 8) != 0)
            style--;
        if (style < tag + 8)
            continue;
        if ((size_in_px || padding_in_px) && (scan(p + style, '"', font_size - style) != NULL || scan(p + style, '(', font_size - style) != NULL))
            continue;
        remove_region(w, at + 1, after);
    }
}

#define WORD_NAMESPACE " xmlns:w=\"urn:schemas-microsoft-com:office:word\""
#define OFFICE_NAMESPACE " xmlns:o=\"urn:schemas-microsoft-com:office:office\""
#define ROUNDRECT_WITH_NAMESPACE "<v:roundrect" WORD_NAMESPACE
#define NOT_OUTLOOK_START "<!--[if !mso]><!-->"
#define NOT_OUTLOOK_END "<!--<![endif]-->"

static int is_ascii_letter(uint8_t b)
{
    return (b | 0x20) >= 'a' && (b | 0x20) <= 'z';
}

/*
 * The `mso-*` declarations of a style value p[s, e) (OUTLOOK_DECLARATION: at its start or after a
 * `;`, `\s*mso-[a-z-]+:[^;]*;?`; the name's run ends at `:`, the value's at `;`).
 */
static void remove_outlook_declarations(Waste *w, size_t s, size_t e)
{
    const uint8_t *p = w->p;
    for (size_t at = s; at <= e;) {
        size_t i = lit(p, e, spaces(p, e, at, 0), "mso-");
        size_t name = i;
        while (i != NO && i < e && ((p[i] >= 'a' && p[i] <= 'z') || p[i] == '-'))
            i++;
        if (i != NO && i > name && i < e && p[i] == ':') {
            const uint8_t *semicolon = scan(p + i, ';', e - i);
            size_t end = semicolon == NULL ? e : (size_t)(semicolon - p) + 1;
            remove_region(w, at, end);
            at = end;
            continue;
        }
        const uint8_t *semicolon = at < e ? scan(p + at, ';', e - at) : NULL;
        if (semicolon == NULL)
            return;
        at = (size_t)(semicolon - p) + 1;
    }
}

/*
 * removeOutlookProperties: in the first not-Outlook region of the piece p[s, e), each start tag
 * (`<`, a letter, up to the first `>` in the region) and its first ` style="…"` (its `\s` one white
 * space character; were its closing quote not in the tag, no later one could be).
 */
static void remove_outlook_properties(Waste *w, size_t s, size_t e)
{
    const uint8_t *p = w->p;
    size_t start = next(w, s, e, NOT_OUTLOOK_START, LENGTH(NOT_OUTLOOK_START));
    size_t end = start == NO ? NO : next(w, start, e, NOT_OUTLOOK_END, LENGTH(NOT_OUTLOOK_END));
    if (end == NO)
        return;
    for (size_t at = until(p, end, start, '<'); at != NO; at = until(p, end, at + 1, '<')) {
        if (at + 1 >= end || !is_ascii_letter(p[at + 1]))
            continue;
        size_t close = until(p, end, at + 2, '>');
        if (close == NO)
            return;
        for (size_t style = next(w, at, close, "style=\"", 7); style != NO; style = next(w, style + 1, close, "style=\"", 7)) {
            if (space_before(p, at, style) == 0)
                continue;
            size_t value_end = until(p, close, style + 7, '"');
            if (value_end != NO)
                remove_outlook_declarations(w, style + 7, value_end);
            break;
        }
        at = close;
    }
}

/* leanerOutlookButtons: the pieces between the occurrences of ROUNDRECT_WITH_NAMESPACE. */
static void leaner_outlook_buttons(Waste *w)
{
    const uint8_t *p = w->p;
    size_t n = w->n, length = LENGTH(ROUNDRECT_WITH_NAMESPACE);
    size_t first = next_by(w, 0, n, ROUNDRECT_WITH_NAMESPACE, length, 1);
    size_t root = first == NO ? NO : next(w, 0, first, OFFICE_NAMESPACE, LENGTH(OFFICE_NAMESPACE));
    if (root == NO)
        return;
    size_t html = root;
    while (html > 0 && p[html] != '<')
        html--;
    if (p[html] != '<' || lit(p, first, html, "<html") == NO)
        return;
    size_t from = w->texts_n;
    text(w, WORD_NAMESPACE, LENGTH(WORD_NAMESPACE));
    mark(w, root + LENGTH(OFFICE_NAMESPACE), root + LENGTH(OFFICE_NAMESPACE), from);
    for (size_t at = first; at != NO;) {
        size_t piece = at + length, following = next_by(w, piece, n, ROUNDRECT_WITH_NAMESPACE, length, 1);
        remove_region(w, piece - LENGTH(WORD_NAMESPACE), piece);
        remove_outlook_properties(w, piece, following == NO ? n : following);
        at = following;
    }
}

/* The end of the run of edits in position order that starts at i. */
static size_t run_end(const Edit *edits, size_t i, size_t count)
{
    while (++i < count && edits[i].start >= edits[i - 1].start) {
    }
    return i;
}

/*
 * The edits by position, and at one position in the order they were marked: a stable merge of
 * runs (each step marks its edits in order), into w->edits. zig's qsort was ~1,500 instructions an edit.
 */
static void order_by_position(Waste *w)
{
    Edit *from = w->edits, *to = w->heap->resize(w->heap->opaque, NULL, w->count * sizeof(Edit));
    if (to == NULL) {
        w->failed = 1;
        return;
    }
    for (size_t runs = 2; runs > 1;) {
        runs = 0;
        for (size_t i = 0; i < w->count; runs++) {
            size_t middle = run_end(from, i, w->count), end = middle < w->count ? run_end(from, middle, w->count) : middle;
            size_t a = i, b = middle, k = i;
            while (a < middle && b < end)
                to[k++] = from[b].start < from[a].start ? from[b++] : from[a++];
            memcpy(to + k, from + a, (middle - a) * sizeof(Edit));
            k += middle - a;
            memcpy(to + k, from + b, (end - b) * sizeof(Edit));
            i = end;
        }
        Edit *sorted = to;
        to = from;
        from = sorted;
    }
    w->heap->release(w->heap->opaque, to);
    w->edits = from;
}

/* DocumentEdits.applyTo, into `out` (room for the document and every replacement text). */
static size_t apply(const Waste *w, uint8_t *out)
{
    size_t written = 0, copied = 0;
    for (size_t k = 0; k < w->count; k++) {
        const Edit *edit = &w->edits[k];
        if (edit->start < copied)
            continue;
        memcpy(out + written, w->p + copied, edit->start - copied);
        written += edit->start - copied;
        if (edit->length != 0) /* a removal: no texts may have been kept at all */
            memcpy(out + written, w->texts + edit->text, edit->length);
        written += edit->length;
        copied = edit->end;
    }
    memcpy(out + written, w->p + copied, w->n - copied);
    return written + w->n - copied;
}

/* Whether the document holds U+0000 or a lone surrogate (see the top). */
static int unreadable(const uint8_t *p, size_t n)
{
    for (size_t i = next_unusual(p, 0, n); i < n; i = next_unusual(p, i + 1, n)) {
        if (p[i] == 0 || lone_surrogate_at(p, i, n))
            return 1;
    }
    return 0;
}

MarkupResult mailrender_remove_html_waste(const uint8_t *p, size_t n, const MarkupHeap *heap, uint8_t **cleaned, size_t *length)
{
    if (unreadable(p, n))
        return MARKUP_LEFT_TO_JAVASCRIPT;
    Waste w = {.heap = heap, .p = p, .n = n};
    remove_repeated_backgrounds(&w);
    remove_empty_attributes(&w);
    remove_tbody_tags(&w);
    remove_unused_menu_rules(&w);
    shorten_zero_lengths(&w);
    leaner_divs(&w);
    remove_zero_cell_padding(&w);
    leaner_outlook_buttons(&w);
    if (!w.failed && !w.refused && w.count > 0)
        order_by_position(&w);
    MarkupResult result = w.failed ? MARKUP_OUT_OF_MEMORY : w.refused ? MARKUP_LEFT_TO_JAVASCRIPT : MARKUP_UNCHANGED;
    if (result == MARKUP_UNCHANGED && w.count > 0) {
        uint8_t *out = heap->resize(heap->opaque, NULL, n + w.texts_n);
        if (out == NULL) {
            result = MARKUP_OUT_OF_MEMORY;
        } else {
            *cleaned = out;
            *length = apply(&w, out);
            result = MARKUP_CHANGED;
        }
    }
    heap->release(heap->opaque, w.edits);
    heap->release(heap->opaque, w.texts);
    return result;
}
