/**
 * Options for every zod parse the engine runs (templates, engine protocol requests).
 *
 * zod's "jit" fast path compiles each object schema's parser with `new Function` on first use. That
 * pays off in a process that parses many times (the library, a `--serve` engine: ~10% of a round
 * trip) and is a loss in one that renders once: the binary's one-shot mode runs the generated code
 * cold, once (~1.8 ms of a cold render, measured). So the binary turns it off for everything but
 * `--serve` (src/cli.ts). A per-parse option, not zod's global config, because the global is read
 * when a schema is built, which for the binary is while its startup snapshot is made.
 */
export const zodParseOptions: { jitless: boolean } = { jitless: false };
