/**
 * Numbers the protocol promises (spec/README.md). Changing one is a contract change: bump
 * PROTOCOL_VERSION when a client could observe the difference.
 */

/** Carried by every response so a client can refuse an engine it does not speak (version handshake). */
export const PROTOCOL_VERSION = 1;

/**
 * Largest request accepted, in bytes of UTF-8 (one-shot: all of stdin; --serve: one line).
 * Real templates are tens of KB; the bound keeps one bad request from exhausting memory.
 */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/**
 * Deepest JSON nesting accepted. Templates nest rows five levels deep (about 25 JSON levels), so
 * 128 is generous; checking it before JSON.parse keeps a hostile `[[[[...` from overflowing the stack
 * in the parser, the schema or the renderer.
 */
export const MAX_JSON_DEPTH = 128;

/** The --serve template_ref store: least recently used entries are evicted past either bound. */
export const TEMPLATE_STORE_MAX_ENTRIES = 256;
export const TEMPLATE_STORE_MAX_BYTES = 64 * 1024 * 1024;

/** A request's `id` as a string: chosen by the client, echoed in the response. */
export const REQUEST_ID_MAX_LENGTH = 256;

/** A template_ref is an opaque client-chosen key, e.g. `"<template_id>@<etag>"`. */
export const TEMPLATE_REF_MAX_LENGTH = 256;

/** What became of a request's saved layout (spec/README.md, "Saved layouts"). */
export const SAVED_LAYOUT_STATUSES = ["used", "extended", "ignored"] as const;

/** How an ok response carries the output: whole, or as a layout sent once plus per-render values. */
export const OUTPUT_FORMATS = ["string", "layout"] as const;
