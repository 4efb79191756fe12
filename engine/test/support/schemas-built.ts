/**
 * The zod schemas built from now on, counted through zod's construction hook
 * (`__zod_globalConfig.postProcessor`, called for every schema zod builds). Installed before the
 * engine's modules are imported, it counts what loading them builds too (vitest gives each test
 * file its own module graph).
 */
export function countSchemasBuilt(): () => number {
  let built = 0;
  const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  zodGlobal.__zod_globalConfig ??= {};
  zodGlobal.__zod_globalConfig["postProcessor"] = () => void built++;
  return () => built;
}
