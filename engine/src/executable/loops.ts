/**
 * The two ways the binary speaks the protocol. Both only move bytes between the streams and the
 * handler; what a response says is decided in handler.ts.
 */
import { MAX_REQUEST_BYTES } from "../protocol/constants.js";
import { tooLarge } from "../protocol/decode.js";
import { errorEnvelope } from "../protocol/envelope.js";
import { ERROR_CODES, EXIT, type ExitCode } from "../protocol/errors.js";
import type { Handled, Handler } from "./handler.js";
import { concatBytes } from "./io.js";
import { type Frame, LineSplitter } from "./line-splitter.js";
import type { Output } from "./output.js";

export interface LoopIO {
  readonly handler: Handler;
  readonly engineVersion: string;
  readonly input: AsyncIterable<Uint8Array>;
  readonly output: Output;
}

/** One request (all of stdin) → one envelope; resolves to the exit status. */
export async function runOneShot(io: LoopIO): Promise<ExitCode> {
  const parts: Uint8Array[] = [];
  let size = 0;
  // Keep reading past the limit (dropping the bytes) so the client's write completes and it reads
  // our envelope instead of failing with a broken pipe.
  for await (const chunk of io.input) {
    size += chunk.length;
    if (size <= MAX_REQUEST_BYTES) parts.push(chunk);
  }
  const handled = size > MAX_REQUEST_BYTES ? tooLargeHandled(size, io.engineVersion) : await io.handler(concatBytes(parts, size));
  const delivered = await io.output.write(handled.wire ?? JSON.stringify(handled.response), true);
  return delivered ? handled.exitCode : EXIT.BAD_REQUEST;
}

/**
 * Newline-delimited requests → one response line each, in request order, until stdin ends.
 * A bad request gets its error envelope and serving goes on; only a closed stdout stops it early.
 */
export async function runServe(io: LoopIO): Promise<ExitCode> {
  const splitter = new LineSplitter(MAX_REQUEST_BYTES);
  /** Answers one frame; false if the answer could not be written, else what to do once it is (memory.ts). */
  const answer = async (frame: Frame): Promise<false | Handled["written"]> => {
    const handled = frame.kind === "line" ? await io.handler(frame.bytes) : tooLargeHandled(frame.size, io.engineVersion);
    return (await io.output.write(handled.wire ?? JSON.stringify(handled.response))) && handled.written;
  };
  const respond = async (frames: Frame[]): Promise<boolean> => {
    for (const frame of frames) {
      const written = await answer(frame);
      if (written === false) return false;
      // Called here, once the answer is no longer referenced: a large request's leftovers are freed.
      written?.();
    }
    return true;
  };
  for await (const chunk of io.input) {
    if (!(await respond(splitter.push(chunk)))) return EXIT.BAD_REQUEST;
  }
  if (!(await respond(splitter.end()))) return EXIT.BAD_REQUEST;
  // The last write's failure (a reader gone before the end) shows only once it has been flushed.
  return (await io.output.flush()) ? EXIT.OK : EXIT.BAD_REQUEST;
}

function tooLargeHandled(size: number, engineVersion: string): Handled {
  const error = tooLarge(size);
  return { response: errorEnvelope(error.code, error.message, [], engineVersion, undefined), exitCode: ERROR_CODES[error.code] };
}
