/*
 * A request's JSON read from its bytes (engine/src/protocol/decode.ts) for the release engine's
 * JavaScript host, as the global function `mailrenderParseJsonUtf8(bytes, maxDepth)`:
 * `JSON.parse(mailrenderDecodeUtf8(bytes))`, its checks in decodeRequest's order: a TypeError (the
 * decoder's) where the bytes are not UTF-8, a RangeError where their bracket nesting outside strings
 * is deeper than `maxDepth`, JSON.parse's SyntaxError where the text is not JSON. QuickJS's
 * JSON.parse reads a string's UTF-8, so the request's bytes are parsed as they are: its text is
 * never made, nor encoded again. The nesting is `maxNesting`'s of the decoded text (quotes,
 * backslashes and brackets are ASCII, never part of a multi-byte sequence), measured in one pass at
 * a few instructions a byte, where the interpreted scan cost ~100 a byte under QuickJS.
 *
 * Installed by `mailrender_request_json_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "global-function.h"
#include "quickjs.h"
#include "utf8.h"

static int64_t nesting_depth(const uint8_t *bytes, size_t length)
{
    int64_t depth = 0, max = 0;
    for (size_t i = 0; i < length; i++) {
        uint8_t c = bytes[i];
        if (c == '"') {
            /* To the closing quote (the end if unclosed); a backslash escapes the byte after it. */
            for (i++; i < length && bytes[i] != '"'; i++)
                if (bytes[i] == '\\') i++;
        } else if (c == '[' || c == '{') {
            if (++depth > max) max = depth;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return max;
}

static JSValue json_parse_utf8(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    int64_t max_depth;
    const uint8_t *bytes = argc < 2 ? NULL : JS_GetUint8Array(ctx, &length, argv[0]);
    if (bytes == NULL || JS_ToInt64(ctx, &max_depth, argv[1]))
        return JS_EXCEPTION;
    utf8_skip_bom(&bytes, &length);
    if (!utf8_well_formed(bytes, length))
        return JS_ThrowTypeError(ctx, UTF8_NOT_WELL_FORMED);
    if (nesting_depth(bytes, length) > max_depth)
        return JS_ThrowRangeError(ctx, "nested deeper than %lld levels", (long long)max_depth);
    /* JS_ParseJSON reads up to a terminating NUL, which the array need not have. */
    char *text = js_malloc(ctx, length + 1);
    if (text == NULL)
        return JS_EXCEPTION;
    memcpy(text, bytes, length);
    text[length] = '\0';
    JSValue value = JS_ParseJSON(ctx, text, length, "<input>");
    js_free(ctx, text);
    return value;
}

void mailrender_request_json_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderParseJsonUtf8", json_parse_utf8, 2);
}
