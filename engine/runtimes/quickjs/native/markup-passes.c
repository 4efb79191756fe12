/*
 * The html target's clean-up and the minifier (markup-passes.h) as the release engine's global
 * functions `mailrenderRemoveHtmlWaste(html, minify)` and `mailrenderMinifyMarkup(markup)`: the same
 * string as the JavaScript's, or undefined where the host leaves the document to the JavaScript.
 * The clean-up minifies what it cleaned up when `minify`, on the cleaned bytes: one copy of the
 * document into C and one back, where two calls made two of each. Their memory comes from the
 * engine's heap, within its cap (--max-memory): over it, the render fails as the JavaScript's would.
 *
 * Installed by `mailrender_markup_passes_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include "global-function.h"
#include "markup-passes.h"
#include "quickjs.h"

static void *engine_resize(void *ctx, void *block, size_t size)
{
    return js_realloc(ctx, block, size);
}

static void engine_release(void *ctx, void *block)
{
    js_free(ctx, block);
}

/* minifyMarkup of p[0, n) as a string, or undefined where the JavaScript minifier must take it. */
static JSValue minified(JSContext *ctx, const uint8_t *p, size_t n)
{
    if (mailrender_minify_refuses(p, n))
        return JS_UNDEFINED;
    uint8_t *memory = js_malloc(ctx, mailrender_minify_memory(n));
    if (memory == NULL)
        return JS_EXCEPTION;
    size_t length;
    const uint8_t *text = mailrender_minify(p, n, memory, &length);
    JSValue result = JS_NewStringLen(ctx, (const char *)text, length);
    js_free(ctx, memory);
    return result;
}

static JSValue minify_markup(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t n;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderMinifyMarkup", &n);
    if (text == NULL)
        return JS_EXCEPTION;
    JSValue result = minified(ctx, (const uint8_t *)text, n);
    JS_FreeCString(ctx, text);
    return result;
}

static JSValue remove_html_waste(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t n;
    const char *document = utf8_argument(ctx, argc, argv, "mailrenderRemoveHtmlWaste", &n);
    if (document == NULL)
        return JS_EXCEPTION;
    int minify = argc >= 2 && JS_ToBool(ctx, argv[1]) == 1;
    const MarkupHeap heap = {ctx, engine_resize, engine_release};
    uint8_t *cleaned = NULL;
    size_t length = 0;
    JSValue result;
    switch (mailrender_remove_html_waste((const uint8_t *)document, n, &heap, &cleaned, &length)) {
    case MARKUP_UNCHANGED:
        result = minify ? minified(ctx, (const uint8_t *)document, n) : JS_DupValue(ctx, argv[0]);
        break;
    case MARKUP_CHANGED:
        result = minify ? minified(ctx, cleaned, length) : JS_NewStringLen(ctx, (const char *)cleaned, length);
        js_free(ctx, cleaned);
        break;
    case MARKUP_OUT_OF_MEMORY:
        /* The engine's heap refused: its out-of-memory exception is pending. */
        result = JS_EXCEPTION;
        break;
    default:
        result = JS_UNDEFINED;
    }
    JS_FreeCString(ctx, document);
    return result;
}

void mailrender_markup_passes_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderMinifyMarkup", minify_markup, 1);
    define_global_function(ctx, "mailrenderRemoveHtmlWaste", remove_html_waste, 1);
}
