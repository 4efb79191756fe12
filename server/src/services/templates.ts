import { createHash, randomUUID } from "node:crypto";
import { type Finding, type RenderWarning, validateTemplate } from "@mailrender/engine";
import { type Issue, validationError } from "../errors.js";
import { explained } from "../http/hints.js";
import { valueAt } from "../http/validation.js";
import type { Store, TemplateRecord } from "../store/types.js";

/** Strong ETag from version and content: changes on every replace, and is stable for a given copy. */
export function etagFor(version: number, body: string): string {
  return `"v${version}-${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
}

export interface PreparedTemplate {
  name: string;
  body: string;
  warnings: readonly RenderWarning[];
  /** The template checks' findings (spec/checks.md): never a reason to refuse the template. */
  findings: readonly Finding[];
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The id the Maildeno editor writes into `template_id` when it exports a template: made from the
 * template's name (its toTemplateId). Such an id is not one anybody chose: the service replaces it.
 */
export function editorTemplateId(name: unknown): string {
  const slug = String(name ?? "")
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug === "" ? "untitled_template" : slug;
}

/**
 * What a document's `template_id` says about the id to store it under: nothing (left out, empty,
 * or the editor's id made from the name), or an id — a UUID v4 on create, the template's own id on
 * replace. Anything else is refused (422): the service cannot keep it, and replacing it silently
 * would lose the id its author meant (a later fetch by it would find nothing).
 */
export function requestedTemplateId(doc: Record<string, unknown>, locRoot: readonly string[], current?: string): string | undefined {
  const written = doc["template_id"];
  if (written === undefined || written === "" || written === editorTemplateId(doc["template_name"])) return undefined;
  const loc = [...locRoot, "template_id"];
  if (typeof written !== "string")
    throw validationError([explained({ loc, msg: "Input should be a valid string", type: "string_type" }, written)], "template_id must be a string");
  if (current !== undefined) {
    if (written.toLowerCase() === current.toLowerCase()) return current;
    throw validationError(
      [
        {
          loc,
          msg: `Input should be this template's id (${current}), or left out`,
          type: "template_id_mismatch",
          input: written,
          hint: "Leave template_id out (the service writes the template's id there), or write this template's id",
        },
      ],
      `template_id "${written}" is not the id of the template being replaced`,
    );
  }
  if (UUID_V4.test(written)) return written.toLowerCase();
  throw validationError(
    [
      {
        loc,
        msg: "Input should be a valid UUID",
        type: "uuid_parsing",
        input: written,
        hint: "Leave template_id out: the service gives the template a UUID, in the response's id (or write a UUID v4 of your own)",
      },
    ],
    `template_id "${written}" is not a UUID: the service cannot keep it`,
  );
}

/**
 * Writes the service's id into `template_id`, then validates with the engine. Issues point into the
 * request document, so their `loc` starts with `body`; each carries its input and, for a common
 * mistake, a hint.
 */
export function prepareTemplate(doc: Record<string, unknown>, id: string, locRoot: readonly string[] = ["body"]): PreparedTemplate {
  const withId: Record<string, unknown> = { ...doc, template_id: id };
  const result = validateTemplate(withId);
  if (!result.valid) {
    const issues: Issue[] = result.issues.map((i) => explained({ loc: [...locRoot, ...i.loc], msg: i.msg, type: i.type }, valueAt(doc, i.loc)));
    throw validationError(issues, "Template JSON is invalid");
  }
  const name = typeof withId["template_name"] === "string" ? withId["template_name"] : "";
  return { name, body: JSON.stringify(withId), warnings: result.warnings, findings: result.findings };
}

export async function createTemplate(
  store: Store,
  doc: Record<string, unknown>,
  id: string = randomUUID(),
  locRoot?: readonly string[],
): Promise<{ record: TemplateRecord; warnings: readonly RenderWarning[]; findings: readonly Finding[] }> {
  return storeNewTemplate(store, id, prepareTemplate(doc, id, locRoot));
}

/** Stores a template prepared under `id` as its version 1. */
export async function storeNewTemplate(
  store: Store,
  id: string,
  prepared: PreparedTemplate,
): Promise<{ record: TemplateRecord; warnings: readonly RenderWarning[]; findings: readonly Finding[] }> {
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
  return { record, warnings: prepared.warnings, findings: prepared.findings };
}
