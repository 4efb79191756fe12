/*
 * UTF-8 for the release engine's JavaScript host (engine/runtimes/quickjs/host.ts), which QuickJS
 * lacks (no TextEncoder or TextDecoder), as three global functions. In C each costs a few
 * instructions a byte; the JavaScript loops they replace cost 200-1,000 under QuickJS (a --serve
 * render of a new newsletter encoded its 50 KB output in ~50 M instructions).
 *
 * - `mailrenderDecodeUtf8(bytes)`: the string a Uint8Array's bytes encode, a leading BOM dropped.
 *   Strict as the WHATWG decoder with `fatal: true` (Node's): any ill-formed sequence (overlong,
 *   surrogate, beyond U+10FFFF, truncated) throws the TypeError Node's TextDecoder throws.
 * - `mailrenderEncodeUtf8(text)`: a string's UTF-8 as a Uint8Array, a lone surrogate as U+FFFD (as
 *   Node's Buffer.from and TextEncoder write it).
 * - `mailrenderUtf8Length(text)`: the length of that encoding, without making it.
 *
 * Installed by `mailrender_utf8_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include "global-function.h"
#include "quickjs.h"
#include "utf8.h"

int utf8_well_formed(const uint8_t *p, size_t length)
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
    utf8_skip_bom(&bytes, &length);
    if (!utf8_well_formed(bytes, length))
        return JS_ThrowTypeError(ctx, UTF8_NOT_WELL_FORMED);
    /* Well-formed input, so QuickJS's own (lenient) decoder reads it exactly. */
    return JS_NewStringLen(ctx, (const char *)bytes, length);
}

/*
 * QuickJS's own encoder (JS_ToCStringLen) writes a lone surrogate as its three-byte form ED A0-BF xx,
 * which well-formed UTF-8 never holds; U+FFFD (EF BF BD) has the same length, so the length needs no
 * correction and the bytes are corrected in place.
 */
static JSValue utf8_encode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderEncodeUtf8", &length);
    if (text == NULL)
        return JS_EXCEPTION;
    JSValue array = JS_NewUint8ArrayCopy(ctx, (const uint8_t *)text, length);
    JS_FreeCString(ctx, text);
    if (JS_IsException(array))
        return array;
    uint8_t *bytes = JS_GetUint8Array(ctx, &length, array);
    for (size_t i = 0; bytes != NULL && i + 2 < length; i++) {
        if (bytes[i] == 0xed && bytes[i + 1] >= 0xa0) {
            bytes[i] = 0xef;
            bytes[i + 1] = 0xbf;
            bytes[i + 2] = 0xbd;
            i += 2;
        }
    }
    return array;
}

static JSValue utf8_length(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderUtf8Length", &length);
    if (text == NULL)
        return JS_EXCEPTION;
    JS_FreeCString(ctx, text);
    return JS_NewInt64(ctx, (int64_t)length);
}

void mailrender_utf8_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderDecodeUtf8", utf8_decode, 1);
    define_global_function(ctx, "mailrenderEncodeUtf8", utf8_encode, 1);
    define_global_function(ctx, "mailrenderUtf8Length", utf8_length, 1);
}
