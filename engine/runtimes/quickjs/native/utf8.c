/*
 * Strict UTF-8 decoding for the release engine's JavaScript host (engine/runtimes/quickjs/host.ts), as
 * the global function `mailrenderDecodeUtf8(bytes)`: the string a Uint8Array's bytes encode, a leading
 * BOM dropped. Strict as the WHATWG decoder with `fatal: true` (Node's): any ill-formed sequence
 * (overlong, surrogate, beyond U+10FFFF, truncated) throws the TypeError Node's TextDecoder throws. In
 * C it costs a few instructions a byte; the JavaScript decoder it replaces cost ~200 under QuickJS,
 * the largest part of reading a request.
 *
 * Installed by `mailrender_utf8_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include "quickjs.h"

/* Whether the bytes are well-formed UTF-8 (The Unicode Standard, table 3-7). */
static int well_formed(const uint8_t *p, size_t length)
{
    size_t i = 0;
    while (i < length) {
        uint8_t b = p[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t need;
        uint8_t lower = 0x80, upper = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) {
            need = 1;
        } else if (b >= 0xe0 && b <= 0xef) {
            need = 2;
            if (b == 0xe0) lower = 0xa0;
            if (b == 0xed) upper = 0x9f;
        } else if (b >= 0xf0 && b <= 0xf4) {
            need = 3;
            if (b == 0xf0) lower = 0x90;
            if (b == 0xf4) upper = 0x8f;
        } else {
            return 0;
        }
        if (length - i <= need) return 0;
        for (size_t k = 1; k <= need; k++) {
            if (p[i + k] < lower || p[i + k] > upper) return 0;
            lower = 0x80;
            upper = 0xbf;
        }
        i += need + 1;
    }
    return 1;
}

static JSValue utf8_decode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const uint8_t *bytes = argc < 1 ? NULL : JS_GetUint8Array(ctx, &length, argv[0]);
    if (bytes == NULL)
        return JS_EXCEPTION;
    if (length >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf) {
        bytes += 3;
        length -= 3;
    }
    if (!well_formed(bytes, length))
        return JS_ThrowTypeError(ctx, "The encoded data was not valid for encoding utf-8");
    /* Well-formed input, so QuickJS's own (lenient) decoder reads it exactly. */
    return JS_NewStringLen(ctx, (const char *)bytes, length);
}

void mailrender_utf8_init(JSContext *ctx)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JS_SetPropertyStr(ctx, global, "mailrenderDecodeUtf8", JS_NewCFunction(ctx, utf8_decode, "mailrenderDecodeUtf8", 1));
    JS_FreeValue(ctx, global);
}
