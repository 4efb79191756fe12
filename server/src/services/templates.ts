import { createHash, randomUUID } from "node:crypto";
import { type RenderWarning, validateTemplate } from "@mailrender/engine";
import { validationError } from "../errors.js";
import type { Store, TemplateRecord } from "../store/types.js";

/** Strong ETag from version and content: changes on every replace, and is stable for a given copy. */
export function etagFor(version: number, body: string): string {
  return `"v${version}-${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
}

export interface PreparedTemplate {
  name: string;
  body: string;
  warnings: readonly RenderWarning[];
}

/**
 * Writes the service's id into `template_id`, then validates with the engine. Issues point into the
 * request document, so their `loc` starts with `body`.
 */
export function prepareTemplate(doc: Record<string, unknown>, id: string, locRoot: readonly string[] = ["body"]): PreparedTemplate {
  const withId: Record<string, unknown> = { ...doc, template_id: id };
  const result = validateTemplate(withId);
  if (!result.valid) {
    throw validationError(
      result.issues.map((i) => ({ loc: [...locRoot, ...i.loc], msg: i.msg, type: i.type })),
      "Template JSON is invalid",
    );
  }
  const name = typeof withId["template_name"] === "string" ? withId["template_name"] : "";
  return { name, body: JSON.stringify(withId), warnings: result.warnings };
}

export async function createTemplate(
  store: Store,
  doc: Record<string, unknown>,
  id: string = randomUUID(),
  locRoot?: readonly string[],
): Promise<{ record: TemplateRecord; warnings: readonly RenderWarning[] }> {
  const prepared = prepareTemplate(doc, id, locRoot);
  const now = new Date().toISOString();
  const record = await store.createTemplate({
    id,
    name: prepared.name,
    body: prepared.body,
    version: 1,
    etag: etagFor(1, prepared.body),
    createdAt: now,
    updatedAt: now,
  });
  return { record, warnings: prepared.warnings };
}
