/**
 * Writes envelopes to stdout and notices when the reader has gone (EPIPE): the loops then stop
 * instead of crashing with an unhandled 'error' event and a stack trace.
 */
export class Output {
  #closed = false;

  constructor(private readonly stream: NodeJS.WritableStream) {
    // Without a listener an EPIPE would be thrown as an uncaught exception.
    stream.on("error", () => {
      this.#closed = true;
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves to false when the text could not be delivered. */
  write(text: string): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.stream.write(text, (error) => {
        if (error) this.#closed = true;
        resolve(!error);
      });
    });
  }
}
