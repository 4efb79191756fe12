/*
 * A string as the body of a JSON string, in UTF-8, for the release engine's JavaScript host
 * (engine/runtimes/quickjs/host.ts), as the global function `mailrenderJsonStringUtf8(text)`: the
 * bytes of `JSON.stringify(text)` without its two quotes, as `mailrenderEncodeUtf8` would encode
 * them. A long-lived process writes each new output (~50,000 characters) this way: quoting it in
 * JavaScript built a second two-byte string, which was then encoded; here QuickJS's own encoder
 * writes its UTF-8 and one pass quotes it into the answer's bytes.
 *
 * JSON.stringify's escapes (ECMA-262, QuoteJSONString): `"` and `\` with a backslash; backspace,
 * tab, line feed, form feed and carriage return as \b \t \n \f \r; every other character below
 * U+0020 and every lone surrogate as \u and four lowercase hex digits; everything else as itself.
 * QuickJS's encoder writes a lone surrogate as its three-byte form ED A0-BF xx (the only bytes
 * ED A0-BF in its output, since a pair is written as one four-byte sequence): those become \udxxx.
 *
 * Installed by `mailrender_json_string_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include "global-function.h"
#include "quickjs.h"

/* What each byte becomes: 0 itself, 'u' a \u00xx escape, 0xed the start of a lone surrogate or of
 * another character, else the letter after a backslash. */
static const uint8_t ESCAPE[256] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    [0xed] = 0xed,
};

/* Writes p's quoted bytes at q. */
static void quote(const uint8_t *p, size_t length, uint8_t *q)
{
    static const char HEX[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        uint8_t b = p[i], e = ESCAPE[b];
        unsigned unit;
        if (e == 0) {
            *q++ = b;
            continue;
        }
        if (e == 0xed) {
            if (i + 2 >= length || p[i + 1] < 0xa0) {
                *q++ = b;
                continue;
            }
            unit = 0xd000 | (p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);
            i += 2;
        } else if (e != 'u') {
            *q++ = '\\';
            *q++ = e;
            continue;
        } else {
            unit = b;
        }
        *q++ = '\\';
        *q++ = 'u';
        *q++ = (uint8_t)HEX[unit >> 12];
        *q++ = (uint8_t)HEX[(unit >> 8) & 15];
        *q++ = (uint8_t)HEX[(unit >> 4) & 15];
        *q++ = (uint8_t)HEX[unit & 15];
    }
}

/* How many bytes quoting adds: one for a backslash and a letter, five for \u00xx, three for a lone surrogate. */
static size_t added_length(const uint8_t *p, size_t length)
{
    size_t added = 0;
    for (size_t i = 0; i < length; i++) {
        uint8_t e = ESCAPE[p[i]];
        if (e == 0)
            continue;
        if (e == 'u')
            added += 5;
        else if (e != 0xed)
            added += 1;
        else if (i + 2 < length && p[i + 1] >= 0xa0)
            added += 3;
    }
    return added;
}

static JSValue json_string_utf8(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length, size;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderJsonStringUtf8", &length);
    if (text == NULL)
        return JS_EXCEPTION;
    const uint8_t *p = (const uint8_t *)text;
    /* Measured first, so a large output takes no more memory than its answer (zeroed, not copied, when given no bytes). */
    JSValue array = JS_NewUint8ArrayCopy(ctx, NULL, length + added_length(p, length));
    uint8_t *bytes = JS_IsException(array) ? NULL : JS_GetUint8Array(ctx, &size, array);
    if (bytes != NULL)
        quote(p, length, bytes);
    JS_FreeCString(ctx, text);
    return array;
}

void mailrender_json_string_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderJsonStringUtf8", json_string_utf8, 1);
}
