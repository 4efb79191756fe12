/**
 * Imported first by the binary's entry (src/cli.ts), before any schema exists: zod's "jit" fast
 * path compiles each object schema's parser with `new Function` and runs that code cold in every
 * launched process (the startup snapshot keeps bytecode, not its feedback). Without it a cold
 * one-shot parses the newsletter's template ~1.8 ms sooner; a warm parse of a template not seen
 * before costs ~0.13 ms more (0.6 → 0.73 ms), and a --serve process parses each distinct template
 * once. Same results either way. The library does not do this: zod's config is global to whoever
 * shares its zod.
 */
import { z } from "zod";

z.config({ jitless: true });
