/**
 * stdout belongs to the protocol: one stray console.log from a dependency would corrupt an
 * envelope stream. Route console output to stderr, and drop mjml's "install cssnano /
 * html-minifier" hint, which it prints when its own minifier path runs (the engine minifies with
 * its own code; the hint is noise for clients that read stderr only for diagnostics).
 */
import { format } from "node:util";

const NOISE = /cssnano|html-minifier/i;

export function guardConsole(stderr: NodeJS.WritableStream = process.stderr): void {
  const toStderr = (...args: unknown[]): void => {
    const text = format(...args);
    if (!NOISE.test(text)) stderr.write(`${text}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  console.error = toStderr;
}
