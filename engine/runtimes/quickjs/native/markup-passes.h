/*
 * The html target's clean-up (html-waste.c) and the html and mjml targets' minifier
 * (markup-minify.c) over a document's UTF-8, for any runtime: the release engine installs them in
 * QuickJS (markup-passes.c), and Node's host runs them compiled to WebAssembly
 * (engine/runtimes/wasm/markup-passes.c). Neither knows the runtime: memory comes from the caller.
 * Each follows its JavaScript definition (engine/src/targets/html-waste.ts, minify.ts) and leaves to
 * it what it cannot give the same bytes for (each file's top says what).
 */
#ifndef MAILRENDER_MARKUP_PASSES_H
#define MAILRENDER_MARKUP_PASSES_H
#include <stddef.h>
#include <stdint.h>

/* Where the clean-up gets its memory: the engine's heap in QuickJS (within its cap), malloc in WebAssembly. */
typedef struct {
    void *opaque;
    /* realloc(block, size) of the runtime's heap (block NULL: a new one); NULL when there is no room. */
    void *(*resize)(void *opaque, void *block, size_t size);
    void (*release)(void *opaque, void *block);
} MarkupHeap;

typedef enum {
    /* Nothing to remove: the document is its own clean-up. */
    MARKUP_UNCHANGED,
    /* The cleaned document is in *cleaned (from the heap; the caller releases it). */
    MARKUP_CHANGED,
    /* The JavaScript must take this document. */
    MARKUP_LEFT_TO_JAVASCRIPT,
    /* The heap had no room. */
    MARKUP_OUT_OF_MEMORY,
} MarkupResult;

/* removeHtmlWaste of p[0, n). */
MarkupResult mailrender_remove_html_waste(const uint8_t *p, size_t n, const MarkupHeap *heap, uint8_t **cleaned, size_t *length);

/* Whether minifyMarkup of p[0, n) is the JavaScript's to do. */
int mailrender_minify_refuses(const uint8_t *p, size_t n);

/* The bytes mailrender_minify needs for an n-byte document. */
size_t mailrender_minify_memory(size_t n);

/* minifyMarkup of p[0, n) (which it does not refuse), written in `memory`: where it starts, and its *length. */
const uint8_t *mailrender_minify(const uint8_t *p, size_t n, uint8_t *memory, size_t *length);

#endif
