/**
 * Writes envelopes to stdout and notices when the reader has gone (EPIPE): the loops then stop
 * instead of crashing with an unhandled 'error' event and a stack trace.
 */
import type { Sink } from "./io.js";

export class Output {
  #closed = false;

  constructor(private readonly stream: Sink) {
    // Without a listener an EPIPE would be thrown as an uncaught exception.
    stream.on("error", () => {
      this.#closed = true;
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Writes one envelope line. Resolves to false when it could not be delivered. Without `confirm`
   * it resolves as soon as the stream accepts the data (or has drained, under backpressure), which
   * keeps a --serve round trip short; a failed write then shows up as `closed` on the next call.
   */
  write(json: string | readonly Uint8Array[], confirm = false): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      // Separate writes instead of one concatenated line: joining would copy a large output once
      // more. Corked, the pieces leave in one writev.
      this.stream.cork?.();
      if (typeof json === "string") this.stream.write(json);
      else for (const piece of json) this.stream.write(piece);
      const accepted = this.stream.write("\n", (error) => {
        if (error) this.#closed = true;
        if (confirm) resolve(!error);
      });
      this.stream.uncork?.();
      if (confirm) return;
      if (accepted) return resolve(!this.#closed);
      // Backpressure: wait for the reader, or for the stream to fail or close (then we are done too).
      const settle = (): void => {
        for (const event of ["drain", "error", "close"] as const) this.stream.off(event, settle);
        resolve(!this.#closed);
      };
      for (const event of ["drain", "error", "close"] as const) this.stream.on(event, settle);
    });
  }

  /** Resolves once everything written so far is flushed: true, or false if the reader has gone. */
  flush(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.stream.write("", (error) => {
        if (error) this.#closed = true;
        resolve(!this.#closed);
      });
    });
  }
}
