/*
 * The nesting-depth check of a request (engine/src/protocol/decode.ts, `maxNesting`) for the release
 * engine's JavaScript host, as the global function `mailrenderJsonNesting(bytes)`: the deepest bracket
 * nesting outside strings of a Uint8Array of UTF-8 JSON. The same answer as `maxNesting` on the decoded
 * text (quotes, backslashes and brackets are ASCII, never part of a multi-byte sequence); one pass at a
 * few instructions a byte, where the interpreted scan cost ~100 a byte under QuickJS.
 *
 * Installed by `mailrender_json_nesting_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include "global-function.h"
#include "quickjs.h"

static JSValue json_nesting(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const uint8_t *bytes = argc < 1 ? NULL : JS_GetUint8Array(ctx, &length, argv[0]);
    if (bytes == NULL)
        return JS_EXCEPTION;
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
    return JS_NewInt64(ctx, max);
}

void mailrender_json_nesting_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderJsonNesting", json_nesting, 1);
}
