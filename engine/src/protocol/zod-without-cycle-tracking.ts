/**
 * Imported first by the executables' entries (src/cli.ts, runtimes/quickjs/host.ts), before any
 * schema is built: zod's default memoizer, which lets one parse follow reference cycles in its
 * input, is replaced by one that tracks nothing. An executable reads its input with `JSON.parse`,
 * which cannot make a cycle, and the memoizer's walk of each container schema on its first parse
 * was ~9% of a small email's cold render on the release engine. Process-wide zod state, so only
 * the executables set it: the library leaves it to its users, whose own zod shares it.
 */
import * as z from "zod/mini";

z.config({
  memoizer: {
    attach() {},
    guard() {},
    alloc: (_schema, _payload, empty) => empty,
  },
});
