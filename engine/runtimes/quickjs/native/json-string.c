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
#include <string.h>
#include "quickjs.h"

/* What each byte below 0x80 becomes: 0 itself, 'u' a \u00xx escape, else the letter after a backslash. */
static const char ESCAPE[128] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
};

static int is_lone_surrogate(const uint8_t *p, size_t i, size_t length)
{
    return p[i] == 0xed && i + 2 < length && p[i + 1] >= 0xa0;
}

/* The quoted length of QuickJS's UTF-8 of a string. */
static size_t quoted_length(const uint8_t *p, size_t length)
{
    size_t out = length;
    for (size_t i = 0; i < length; i++) {
        uint8_t b = p[i];
        if (b < 0x80) {
            char e = ESCAPE[b];
            if (e != 0) out += e == 'u' ? 5 : 1;
        } else if (is_lone_surrogate(p, i, length)) {
            out += 3; /* three bytes become six */
            i += 2;
        }
    }
    return out;
}

static void quote(const uint8_t *p, size_t length, uint8_t *q)
{
    static const char HEX[] = "0123456789abcdef";
    size_t i = 0;
    while (i < length) {
        /* the run that needs no escape, copied at once */
        size_t run = i;
        while (run < length && (p[run] < 0x80 ? ESCAPE[p[run]] == 0 : !is_lone_surrogate(p, run, length)))
            run++;
        memcpy(q, p + i, run - i);
        q += run - i;
        i = run;
        if (i == length)
            break;
        uint8_t b = p[i];
        unsigned unit;
        if (b < 0x80) {
            char e = ESCAPE[b];
            i++;
            *q++ = '\\';
            if (e != 'u') {
                *q++ = (uint8_t)e;
                continue;
            }
            unit = b;
        } else {
            unit = 0xd000 | (p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);
            i += 3;
            *q++ = '\\';
        }
        *q++ = 'u';
        *q++ = (uint8_t)HEX[unit >> 12];
        *q++ = (uint8_t)HEX[(unit >> 8) & 15];
        *q++ = (uint8_t)HEX[(unit >> 4) & 15];
        *q++ = (uint8_t)HEX[unit & 15];
    }
}

static JSValue json_string_utf8(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 1 || !JS_IsString(argv[0]))
        return JS_ThrowTypeError(ctx, "mailrenderJsonStringUtf8 takes a string");
    size_t length;
    const char *text = JS_ToCStringLen(ctx, &length, argv[0]);
    if (text == NULL)
        return JS_EXCEPTION;
    const uint8_t *p = (const uint8_t *)text;
    size_t size;
    /* zeroed, not copied, when given no bytes */
    JSValue array = JS_NewUint8ArrayCopy(ctx, NULL, quoted_length(p, length));
    uint8_t *bytes = JS_IsException(array) ? NULL : JS_GetUint8Array(ctx, &size, array);
    if (bytes != NULL)
        quote(p, length, bytes);
    JS_FreeCString(ctx, text);
    return array;
}

void mailrender_json_string_init(JSContext *ctx)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JS_SetPropertyStr(ctx, global, "mailrenderJsonStringUtf8", JS_NewCFunction(ctx, json_string_utf8, "mailrenderJsonStringUtf8", 1));
    JS_FreeValue(ctx, global);
}
