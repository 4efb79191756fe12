/**
 * A template as a user's next, different template: its name and every block's text made new (the
 * number `n` added to each `content`, inside a closing `</p>` where there is one). The engine keeps
 * sanitised rich text by its text across templates, so a copy under a new id alone would still find
 * every text it renders already sanitised: not a template seen for the first time.
 *
 *   npx tsx engine/scripts/new-template.ts <request.json> <count>
 *
 * prints the render requests of `count` new templates, a JSON line each (bench/engine_runtimes.py).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

type Json = Record<string, unknown>;

export function asNewTemplate(template: Json, n: number): Json {
  const fresh = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fresh);
    if (value === null || typeof value !== "object") return value;
    const copy: Json = {};
    for (const [key, item] of Object.entries(value)) copy[key] = key === "content" && typeof item === "string" ? newText(item, n) : fresh(item);
    return copy;
  };
  return { ...(fresh(template) as Json), template_name: `new template ${n}` };
}

function newText(text: string, n: number): string {
  return text.endsWith("</p>") ? `${text.slice(0, -"</p>".length)} ${n}</p>` : `${text} ${n}`;
}

/** A render request (`id` n) whose template is the n-th new one. */
export function newTemplateRequest(request: Json & { template: Json }, n: number): Json {
  return { ...request, id: n, template: asNewTemplate(request.template, n) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, count] = process.argv.slice(2);
  const request = JSON.parse(readFileSync(path ?? "", "utf8")) as Json & { template: Json };
  for (let n = 0; n < Number(count); n++) process.stdout.write(`${JSON.stringify(newTemplateRequest(request, n))}\n`);
}
