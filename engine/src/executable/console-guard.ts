/**
 * stdout belongs to the protocol: one stray console.log from a dependency would corrupt an
 * envelope stream. Console output goes to stderr instead, without mjml's "install cssnano /
 * html-minifier" hint, which it prints when its own minifier path runs (the engine minifies with
 * its own code; the hint is noise for clients that read stderr only for diagnostics).
 */
import type { Sink } from "./io.js";

const NOISE = /cssnano|html-minifier/i;

export function guardConsole(stderr: Sink): void {
  const toStderr = (...args: unknown[]): void => {
    const text = args.map((value) => (typeof value === "string" ? value : value instanceof Error ? (value.stack ?? value.message) : json(value))).join(" ");
    if (!NOISE.test(text)) stderr.write(`${text}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  console.error = toStderr;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
