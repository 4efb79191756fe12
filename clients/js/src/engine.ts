/**
 * The in-process renderer. The engine is ESM-only; it is loaded with a dynamic import() (kept as-is by
 * both builds), which lets the CommonJS build use it on every supported Node without require(esm).
 * Merge tags and context are handed to it here and go nowhere else.
 */
import type { DynamicData, PreparedTemplate, RenderTarget, RenderWarning } from "@mailrender/engine";
import { ENGINE_MAJOR } from "./constants.js";
import { MailrenderError } from "./errors.js";

type Engine = typeof import("@mailrender/engine");

let loading: Promise<Engine> | undefined;

async function load(): Promise<Engine> {
  let engine: Engine;
  try {
    engine = await import("@mailrender/engine");
  } catch (error) {
    throw new MailrenderError("UNKNOWN", 0, "Could not load @mailrender/engine (a dependency of @mailrender/client): reinstall the package", [], {
      cause: error,
    });
  }
  const major = Number(engine.ENGINE_VERSION.split(".")[0]);
  if (major !== ENGINE_MAJOR) {
    throw new MailrenderError("UNKNOWN", 0, `@mailrender/client needs @mailrender/engine ${ENGINE_MAJOR}.x, found ${engine.ENGINE_VERSION}`);
  }
  return engine;
}

export function loadEngine(): Promise<Engine> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined; // a failed load may be retried by the next render
    throw error;
  });
  return loading;
}

export interface LocalRender {
  readonly output: string;
  readonly text?: string;
  readonly warnings: readonly RenderWarning[];
}

/**
 * Templates come from the client's own cache and are never changed in place, so each is prepared
 * once (parsed, validated and hashed) and later renders of it skip that work.
 */
const prepared = new WeakMap<object, PreparedTemplate>();

function preparedFor(engine: Engine, template: unknown): unknown {
  if (typeof template !== "object" || template === null) return template;
  let ready = prepared.get(template);
  if (ready === undefined) {
    ready = engine.prepareTemplate(template);
    prepared.set(template, ready);
  }
  return ready;
}

export async function renderLocally(
  template: unknown,
  options: {
    target: RenderTarget;
    dynamicData: DynamicData | undefined;
    minify: boolean | undefined;
    strict: boolean | undefined;
    plainText: boolean | undefined;
    componentProps: boolean | undefined;
  },
): Promise<LocalRender> {
  const engine = await loadEngine();
  try {
    const result = await engine.render(preparedFor(engine, template), options);
    return { output: result.output, ...(result.text === undefined ? {} : { text: result.text }), warnings: result.warnings };
  } catch (error) {
    // 422 like the service's render endpoint gives for the same failure, so both paths compare equal.
    if (error instanceof engine.RenderError) throw new MailrenderError("RENDER_ERROR", 422, error.message, error.issues, { cause: error });
    throw new MailrenderError("UNKNOWN", 0, `The engine failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`, [], { cause: error });
  }
}
