/** What a cost test checks that a scan did, rather than how long it took. */

type Scan = "split" | "indexOf" | "includes" | "replace";

/** The lengths of the strings these methods (by default `split`, `indexOf`, `includes` and `replace`) ran over while `run` ran. */
export function scannedLengths(run: () => void, methods: readonly Scan[] = ["split", "indexOf", "includes", "replace"]): number[] {
  const lengths: number[] = [];
  const originals = methods.map((name) => String.prototype[name]);
  methods.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    (String.prototype as unknown as Record<string, unknown>)[name] = function (this: string, ...args: unknown[]) {
      lengths.push(this.length);
      return original.apply(this, args);
    };
  });
  try {
    run();
  } finally {
    methods.forEach((name, i) => {
      (String.prototype as unknown as Record<string, unknown>)[name] = originals[i];
    });
  }
  return lengths;
}
