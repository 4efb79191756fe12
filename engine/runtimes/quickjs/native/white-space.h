/*
 * JavaScript's white space (`\s`, `trim`: WhiteSpace and LineTerminator — 09-0D, 20, A0, 1680,
 * 2000-200A, 2028, 2029, 202F, 205F, 3000, FEFF) in UTF-8, for the native functions that follow a
 * JavaScript definition byte for byte.
 */
#ifndef MAILRENDER_WHITE_SPACE_H
#define MAILRENDER_WHITE_SPACE_H
#include <stddef.h>
#include <stdint.h>

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

#endif
