/*
 * SHA-256 (FIPS 180-4) and CRC-32 for the release engine's JavaScript host (engine/runtimes/quickjs/
 * host.ts). `mailrenderSha256(text)` is the lowercase hex SHA-256 of the string's UTF-8, which binds a
 * saved layout to its template (spec/README.md, "Saved layouts"): in C it costs tens of instructions a
 * byte, where a JavaScript hash costs hundreds.
 *
 * `mailrenderRequestTemplateSha256(bytes)` is the same digest of a request's `template` value as the
 * request's bytes write it (a UTF-8 JSON object whose top-level `template` is an object), found
 * without decoding or re-serialising it: a long-lived process keys its caches by it (EngineHost
 * `requestTemplateDigest`, docs/design/template-cache-key.md). Undefined when the request is not
 * such an object or one of its top-level names is written with an escape (what it names is then
 * JSON.parse's to say).
 *
 * `mailrenderCrc32(text)` is the CRC-32 of a string's UTF-8 (ISO-HDLC, as zlib's `crc32`) in 8
 * lowercase hex digits: what checks a saved layout, the size of a whole email, was not damaged, at
 * a few instructions a byte (an error check, not a seal: spec/README.md says why that is enough).
 *
 * Installed by `mailrender_checksum_init`, which the build adds to qjsc's generated main().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "global-function.h"
#include "quickjs.h"
#include "utf8.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

#define CH(e, f, g) (((e) & (f)) ^ (~(e) & (g)))
#define MAJ(a, b, c) (((a) & (b)) | ((c) & ((a) | (b))))
#define BSIG0(a) (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22))
#define BSIG1(e) (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25))
#define SSIG0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))
/* One round, the eight working variables named in their rotated order: nothing is moved between rounds. */
#define ROUND(a, b, c, d, e, f, g, h, t)                            \
    do {                                                            \
        uint32_t t1 = h + BSIG1(e) + CH(e, f, g) + K[t] + w[t];     \
        d += t1;                                                    \
        h = t1 + BSIG0(a) + MAJ(a, b, c);                           \
    } while (0)

static void sha256_block(uint32_t s[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
    for (int t = 16; t < 64; t++)
        w[t] = w[t - 16] + SSIG0(w[t - 15]) + w[t - 7] + SSIG1(w[t - 2]);
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (int t = 0; t < 64; t += 8) {
        ROUND(a, b, c, d, e, f, g, h, t);
        ROUND(h, a, b, c, d, e, f, g, t + 1);
        ROUND(g, h, a, b, c, d, e, f, t + 2);
        ROUND(f, g, h, a, b, c, d, e, t + 3);
        ROUND(e, f, g, h, a, b, c, d, t + 4);
        ROUND(d, e, f, g, h, a, b, c, t + 5);
        ROUND(c, d, e, f, g, h, a, b, t + 6);
        ROUND(b, c, d, e, f, g, h, a, t + 7);
    }
    s[0] += a; s[1] += b; s[2] += c; s[3] += d; s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

static void sha256(const uint8_t *data, size_t length, uint8_t digest[32])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t whole = length - length % 64;
    for (size_t i = 0; i < whole; i += 64) sha256_block(h, data + i);
    uint8_t tail[128] = {0};
    size_t rest = length - whole;
    memcpy(tail, data + whole, rest);
    tail[rest] = 0x80;
    size_t tail_length = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[tail_length - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tail_length; i += 64) sha256_block(h, tail + i);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h[i];
    }
}

/* Up to 32 bytes as a JavaScript string of lowercase hex digits, in order. */
static JSValue hex_string(JSContext *ctx, const uint8_t *bytes, size_t length)
{
    static const char HEX[] = "0123456789abcdef";
    char hex[64];
    for (size_t i = 0; i < length; i++) {
        hex[2 * i] = HEX[bytes[i] >> 4];
        hex[2 * i + 1] = HEX[bytes[i] & 15];
    }
    return JS_NewStringLen(ctx, hex, 2 * length);
}

static JSValue hex_digest(JSContext *ctx, const uint8_t *data, size_t length)
{
    uint8_t digest[32];
    sha256(data, length, digest);
    return hex_string(ctx, digest, sizeof digest);
}

static JSValue checksum_sha256(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderSha256", &length);
    if (text == NULL)
        return JS_EXCEPTION;
    JSValue hex = hex_digest(ctx, (const uint8_t *)text, length);
    JS_FreeCString(ctx, text);
    return hex;
}

/*
 * The CRC-32 of ISO-HDLC (zlib's crc32, PNG's, gzip's), eight bytes a step ("slicing by eight", from
 * tables made on first use): a byte at a time, each step waits for the last step's table read, and a
 * saved layout's ~55,000 bytes were ~5% of a render from it.
 */
static uint32_t crc32(const uint8_t *p, size_t length)
{
    static uint32_t table[8][256];
    static int ready = 0;
    if (!ready) {
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
            table[0][n] = c;
        }
        /* table[k][n]: the CRC of byte n followed by k zero bytes */
        for (int k = 1; k < 8; k++)
            for (uint32_t n = 0; n < 256; n++) table[k][n] = table[0][table[k - 1][n] & 0xff] ^ (table[k - 1][n] >> 8);
        ready = 1;
    }
    uint32_t c = 0xffffffff;
    for (; length >= 8; p += 8, length -= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^ table[3][hi & 0xff] ^
            table[2][(hi >> 8) & 0xff] ^ table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
    }
    for (; length > 0; p++, length--) c = table[0][(c ^ *p) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffff;
}

static JSValue checksum_crc32(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t length;
    const char *text = utf8_argument(ctx, argc, argv, "mailrenderCrc32", &length);
    if (text == NULL)
        return JS_EXCEPTION;
    uint32_t c = crc32((const uint8_t *)text, length);
    JS_FreeCString(ctx, text);
    const uint8_t bytes[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
    return hex_string(ctx, bytes, sizeof bytes);
}

static size_t skip_space(const uint8_t *p, size_t i, size_t n)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

/* The index after the string whose opening quote is at i; *escaped set when it holds a backslash. */
static size_t string_end(const uint8_t *p, size_t i, size_t n, int *escaped)
{
    for (i++; i < n && p[i] != '"'; i++) {
        if (p[i] == '\\') {
            *escaped = 1;
            i++;
        }
    }
    return i + 1;
}

/* The index after the JSON value that starts at i. */
static size_t value_end(const uint8_t *p, size_t i, size_t n)
{
    int escaped = 0;
    if (i >= n)
        return n;
    if (p[i] == '"')
        return string_end(p, i, n, &escaped);
    if (p[i] == '{' || p[i] == '[') {
        size_t depth = 0;
        for (; i < n; i++) {
            if (p[i] == '"') {
                i = string_end(p, i, n, &escaped) - 1;
            } else if (p[i] == '{' || p[i] == '[') {
                depth++;
            } else if ((p[i] == '}' || p[i] == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return n;
    }
    while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
        i++;
    return i;
}

static JSValue request_template_sha256(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t n;
    const uint8_t *p = argc < 1 ? NULL : JS_GetUint8Array(ctx, &n, argv[0]);
    if (p == NULL)
        return JS_EXCEPTION;
    utf8_skip_bom(&p, &n);
    size_t i = skip_space(p, 0, n);
    if (i >= n || p[i] != '{')
        return JS_UNDEFINED;
    /* JSON.parse keeps the last of repeated names: so does this. */
    size_t start = 0, end = 0;
    for (i = skip_space(p, i + 1, n); i < n && p[i] != '}';) {
        int escaped = 0;
        if (p[i] != '"')
            return JS_UNDEFINED;
        size_t name = i + 1;
        i = string_end(p, i, n, &escaped);
        if (escaped || i > n)
            return JS_UNDEFINED;
        int is_template = i - 1 - name == 8 && memcmp(p + name, "template", 8) == 0;
        i = skip_space(p, i, n);
        if (i >= n || p[i] != ':')
            return JS_UNDEFINED;
        i = skip_space(p, i + 1, n);
        size_t value = i;
        i = value_end(p, i, n);
        if (i > n)
            return JS_UNDEFINED;
        if (is_template) {
            start = value;
            end = i;
        }
        i = skip_space(p, i, n);
        if (i < n && p[i] == ',')
            i = skip_space(p, i + 1, n);
    }
    if (end == 0 || start >= n || p[start] != '{')
        return JS_UNDEFINED;
    return hex_digest(ctx, p + start, end - start);
}

void mailrender_checksum_init(JSContext *ctx)
{
    define_global_function(ctx, "mailrenderSha256", checksum_sha256, 1);
    define_global_function(ctx, "mailrenderRequestTemplateSha256", request_template_sha256, 1);
    define_global_function(ctx, "mailrenderCrc32", checksum_crc32, 1);
}
