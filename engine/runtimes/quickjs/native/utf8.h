/*
 * What utf8.c shares with the other native files: strict UTF-8, as `mailrenderDecodeUtf8` reads it.
 */
#ifndef MAILRENDER_UTF8_H
#define MAILRENDER_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Node's TextDecoder's message (`fatal: true`) for bytes that are not UTF-8. */
#define UTF8_NOT_WELL_FORMED "The encoded data was not valid for encoding utf-8"

/* Whether the bytes are well-formed UTF-8 (The Unicode Standard, table 3-7). */
int utf8_well_formed(const uint8_t *p, size_t length);

/* A leading byte-order mark dropped, as the WHATWG decoder drops it. */
static inline void utf8_skip_bom(const uint8_t **bytes, size_t *length)
{
    if (*length >= 3 && (*bytes)[0] == 0xef && (*bytes)[1] == 0xbb && (*bytes)[2] == 0xbf) {
        *bytes += 3;
        *length -= 3;
    }
}

#endif
