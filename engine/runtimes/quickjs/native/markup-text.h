/*
 * Reading a document's UTF-8 as JavaScript reads its text, shared by the native steps that follow a
 * JavaScript definition (markup-minify.c, html-waste.c, conditional-minify.c; the first two also as
 * WebAssembly, engine/runtimes/wasm/): white space is what
 * JavaScript's `\s` and `trim` take (WhiteSpace and LineTerminator: 09-0D, 20, A0, 1680, 2000-200A,
 * 2028, 2029, 202F, 205F, 3000, FEFF). Static functions: each file that includes it has its own copy.
 */
#ifndef MAILRENDER_MARKUP_TEXT_H
#define MAILRENDER_MARKUP_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The byte length of the white space character starting at p[i] (i < n), or 0. */
static inline size_t space_at(const uint8_t *p, size_t i, size_t n)
{
    uint8_t b = p[i];
    if (b == 0x20 || (b >= 0x09 && b <= 0x0d))
        return 1;
    if (b == 0xc2)
        return i + 1 < n && p[i + 1] == 0xa0 ? 2 : 0;
    if (b < 0xe1 || i + 2 >= n)
        return 0;
    uint8_t c = p[i + 1], d = p[i + 2];
    switch (b) {
    case 0xe1: /* U+1680 */
        return c == 0x9a && d == 0x80 ? 3 : 0;
    case 0xe2: /* U+2000-200A, 2028, 2029, 202F; U+205F */
        if (c == 0x80)
            return d <= 0x8a || d == 0xa8 || d == 0xa9 || d == 0xaf ? 3 : 0;
        return c == 0x81 && d == 0x9f ? 3 : 0;
    case 0xe3: /* U+3000 */
        return c == 0x80 && d == 0x80 ? 3 : 0;
    case 0xef: /* U+FEFF */
        return c == 0xbb && d == 0xbf ? 3 : 0;
    default:
        return 0;
    }
}

/* The byte length of the white space character ending at p[end - 1] and starting at start or after, or 0. */
static inline size_t space_before(const uint8_t *p, size_t start, size_t end)
{
    if (end <= start)
        return 0;
    uint8_t b = p[end - 1];
    if (b < 0x80)
        return b == 0x20 || (b >= 0x09 && b <= 0x0d);
    /* UTF-8 tells a lead byte from the others: a character found here starts where it seems to. */
    if (end - start >= 2 && space_at(p, end - 2, end) == 2)
        return 2;
    if (end - start >= 3 && space_at(p, end - 3, end) == 3)
        return 3;
    return 0;
}

static inline size_t trim_start(const uint8_t *p, size_t start, size_t end)
{
    size_t k;
    while (start < end && (k = space_at(p, start, end)) > 0)
        start += k;
    return start;
}

static inline size_t trim_end(const uint8_t *p, size_t start, size_t end)
{
    size_t k;
    while ((k = space_before(p, start, end)) > 0)
        end -= k;
    return end;
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* memchr, sixteen bytes a step: as WebAssembly (Node's host), where SIMD is there to use. */
static inline const uint8_t *scan(const uint8_t *p, int c, size_t n)
{
    const v128_t pattern = wasm_i8x16_splat((int8_t)c);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint32_t found = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p + i), pattern));
        if (found != 0)
            return p + i + __builtin_ctz(found);
    }
    for (; i < n; i++) {
        if (p[i] == (uint8_t)c)
            return p + i;
    }
    return NULL;
}

/* Where the two bytes `first` `second` first stand in p[0, n), sixteen positions a step, or NULL. */
static inline const uint8_t *scan_pair(const uint8_t *p, uint8_t first, uint8_t second, size_t n)
{
    const v128_t firsts = wasm_i8x16_splat((int8_t)first), seconds = wasm_i8x16_splat((int8_t)second);
    size_t i = 0;
    for (; i + 17 <= n; i += 16) {
        v128_t both = wasm_v128_and(wasm_i8x16_eq(wasm_v128_load(p + i), firsts), wasm_i8x16_eq(wasm_v128_load(p + i + 1), seconds));
        uint32_t found = wasm_i8x16_bitmask(both);
        if (found != 0)
            return p + i + __builtin_ctz(found);
    }
    for (; i + 1 < n; i++) {
        if (p[i] == first && p[i + 1] == second)
            return p + i;
    }
    return NULL;
}
#else
/*
 * The bytes of `word` that are zero, each flagged by its high bit; a byte above a zero one may be
 * flagged too (the borrow of `word - ones`), none is missed: a flagged word is read a byte at a time.
 */
static inline uint64_t zero_bytes(uint64_t word)
{
    return (word - 0x0101010101010101ull) & ~word & 0x8080808080808080ull;
}

/*
 * memchr, eight bytes a step (a byte of `word ^ pattern` is zero where `c` stands): zig's C library,
 * which the release build links, reads a byte a step, and the native steps' scans were most of their cost.
 */
static inline const uint8_t *scan(const uint8_t *p, int c, size_t n)
{
    const uint64_t pattern = 0x0101010101010101ull * (uint8_t)c;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        if (zero_bytes(word ^ pattern))
            break;
    }
    for (; i < n; i++) {
        if (p[i] == (uint8_t)c)
            return p + i;
    }
    return NULL;
}

/*
 * Where the two bytes `first` `second` first stand in p[0, n), eight positions a step, or NULL: a
 * byte of `(word ^ firsts) | (next word ^ seconds)` is zero where the pair stands.
 */
static inline const uint8_t *scan_pair(const uint8_t *p, uint8_t first, uint8_t second, size_t n)
{
    const uint64_t firsts = 0x0101010101010101ull * first, seconds = 0x0101010101010101ull * second;
    size_t i = 0;
    for (; i + 9 <= n; i += 8) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 1, 8);
        if (zero_bytes((a ^ firsts) | (b ^ seconds)))
            break;
    }
    for (; i + 1 < n; i++) {
        if (p[i] == first && p[i + 1] == second)
            return p + i;
    }
    return NULL;
}
#endif

/* The first byte at i or after that is 00 or not ASCII, eight bytes a step (markup is mostly ASCII), or n. */
static inline size_t next_unusual(const uint8_t *p, size_t i, size_t n)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        if ((word | ((word - ones) & ~word)) & highs)
            break;
    }
    while (i < n && p[i] != 0 && p[i] < 0x80)
        i++;
    return i;
}

/*
 * Whether a lone surrogate starts at p[i]: JS_ToCStringLen writes one as its three bytes ED A0–BF …,
 * which UTF-8 cannot carry back into a string (the natives leave such text to the JavaScript).
 */
static inline int lone_surrogate_at(const uint8_t *p, size_t i, size_t n)
{
    return p[i] == 0xed && i + 1 < n && p[i + 1] >= 0xa0;
}

/* Whether p[0, n) holds a lone surrogate. */
static inline int holds_lone_surrogate(const uint8_t *p, size_t n)
{
    for (size_t i = next_unusual(p, 0, n); i < n; i = next_unusual(p, i + 1, n))
        if (lone_surrogate_at(p, i, n))
            return 1;
    return 0;
}

/*
 * Where `literal` (of two bytes or more) first stands in p[from, n), found by its two bytes at `key`,
 * or NULL (memmem is not in every target's C library). A pair of bytes stands in markup far less
 * often than one: the rarer the pair, the fewer places compared.
 */
static inline const uint8_t *find_by(const uint8_t *p, size_t from, size_t n, const char *literal, size_t length, size_t key)
{
    for (size_t i = from + key; i < n;) {
        const uint8_t *hit = scan_pair(p + i, (uint8_t)literal[key], (uint8_t)literal[key + 1], n - i);
        if (hit == NULL)
            return NULL;
        size_t at = (size_t)(hit - p) - key;
        if (n - at < length)
            return NULL;
        if (memcmp(p + at, literal, length) == 0)
            return p + at;
        i = (size_t)(hit - p) + 1;
    }
    return NULL;
}

/* Where `literal` (of two bytes or more) first stands in p[from, n), found by its first two bytes, or NULL. */
static inline const uint8_t *find(const uint8_t *p, size_t from, size_t n, const char *literal, size_t length)
{
    return find_by(p, from, n, literal, length, 0);
}

#endif
