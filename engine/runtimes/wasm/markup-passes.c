/*
 * The release engine's html clean-up and minifier (../quickjs/native/markup-passes.h) as a
 * WebAssembly module, for Node's host (engine/src/engine/wasm-markup-passes.ts): the same C, so the
 * same bytes, in under half the JavaScript's time on a new newsletter's html, and no garbage for V8
 * to collect. The host writes a document's UTF-8 into `document_buffer`, calls a pass, and reads
 * the result at `result_bytes`; a result stays valid until the next call. The memory is malloc's,
 * from the module's own linear memory, which only grows: the host starts a new instance when it
 * has grown large.
 */
#include <stdint.h>
#include <stdlib.h>
#include "markup-passes.h"
#include "markup-text.h"

#define EXPORT(name) __attribute__((export_name(name)))

/*
 * U+FFFD's UTF-8: what the host's TextEncoder writes for a lone surrogate, which the JavaScript keeps
 * as it is (and for U+FFFD itself, which then goes to the JavaScript too). Looked for here, sixteen
 * bytes a step, rather than by `isWellFormed` in V8, which took as long as the encoding.
 */
static int holds_replacement_character(const uint8_t *p, size_t n)
{
    return find(p, 0, n, "\xef\xbf\xbd", 3) != NULL;
}

/* A pass's result when it is not a length. */
enum { LEFT_TO_JAVASCRIPT = -1, UNCHANGED = -2 };

static uint8_t *document;
static size_t document_size;
/* What the last result lives in (freed at the next call), and where it starts. */
static void *result_block;
static const uint8_t *result;

static void *heap_resize(void *opaque, void *block, size_t size)
{
    (void)opaque;
    return realloc(block, size);
}

static void heap_release(void *opaque, void *block)
{
    (void)opaque;
    free(block);
}

static const MarkupHeap HEAP = {NULL, heap_resize, heap_release};

/* Room for a document of `size` bytes; NULL when the module's memory cannot grow that far. */
EXPORT("document_buffer") uint8_t *document_buffer(size_t size)
{
    if (size > document_size) {
        free(document);
        document = malloc(size);
        document_size = document == NULL ? 0 : size;
    }
    return document;
}

EXPORT("result_bytes") const uint8_t *result_bytes(void)
{
    return result;
}

/* The last result's runs of bytes beyond ASCII, as pairs of offsets, and the room for them. */
static uint32_t *runs;
static size_t runs_room;

/*
 * The runs of bytes beyond ASCII in the last result (`length` bytes), each whole UTF-8 characters,
 * written at `result_runs_at` as pairs of offsets (start, end): their count, or -1 where there are
 * more than `most` (or no room for them). The host decodes the ASCII between them as Latin-1,
 * which V8 copies, where a decoder given any byte beyond ASCII takes its slow path for the whole text.
 */
EXPORT("result_runs") int32_t result_runs(size_t length, size_t most)
{
    if (runs_room < 2 * most) {
        free(runs);
        runs = malloc(2 * most * sizeof *runs);
        runs_room = runs == NULL ? 0 : 2 * most;
        if (runs == NULL)
            return -1;
    }
    size_t count = 0;
    for (size_t i = next_unusual(result, 0, length); i < length; i = next_unusual(result, i, length)) {
        if (result[i] < 0x80) { /* U+0000: ASCII */
            i++;
            continue;
        }
        if (count == most)
            return -1;
        runs[2 * count] = (uint32_t)i;
        while (i < length && result[i] >= 0x80)
            i++;
        runs[2 * count + 1] = (uint32_t)i;
        count++;
    }
    return (int32_t)count;
}

EXPORT("result_runs_at") const uint32_t *result_runs_at(void)
{
    return runs;
}

static void forget_result(void)
{
    free(result_block);
    result_block = NULL;
    result = NULL;
}

/* minifyMarkup of p[0, n) into `result`: its length, or LEFT_TO_JAVASCRIPT. */
static int32_t minified(const uint8_t *p, size_t n)
{
    if (mailrender_minify_refuses(p, n))
        return LEFT_TO_JAVASCRIPT;
    uint8_t *memory = malloc(mailrender_minify_memory(n));
    if (memory == NULL)
        return LEFT_TO_JAVASCRIPT;
    size_t length;
    result = mailrender_minify(p, n, memory, &length);
    result_block = memory;
    return (int32_t)length;
}

/* minifyMarkup of the n-byte document: the result's length, or LEFT_TO_JAVASCRIPT. */
EXPORT("minify_markup") int32_t minify_markup(size_t n)
{
    forget_result();
    return holds_replacement_character(document, n) ? LEFT_TO_JAVASCRIPT : minified(document, n);
}

/*
 * removeHtmlWaste of the n-byte document, then minifyMarkup when `minify`: the result's length,
 * UNCHANGED (not minified, nothing removed), or LEFT_TO_JAVASCRIPT (out of memory too: the
 * JavaScript then does it in V8's heap).
 */
EXPORT("remove_html_waste") int32_t remove_html_waste(size_t n, int32_t minify)
{
    forget_result();
    if (holds_replacement_character(document, n))
        return LEFT_TO_JAVASCRIPT;
    uint8_t *cleaned = NULL;
    size_t length = 0;
    switch (mailrender_remove_html_waste(document, n, &HEAP, &cleaned, &length)) {
    case MARKUP_UNCHANGED:
        return minify ? minified(document, n) : UNCHANGED;
    case MARKUP_CHANGED:
        if (!minify) {
            result = result_block = cleaned;
            return (int32_t)length;
        }
        int32_t minified_length = minified(cleaned, length);
        free(cleaned);
        return minified_length;
    default:
        return LEFT_TO_JAVASCRIPT;
    }
}
