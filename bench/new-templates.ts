/**
 * Templates no render has seen, for the benchmarks of a first render: the realistic newsletter in
 * the editor's hydrated form (every editor default filled: the real Maildeno engine fills none of
 * its own) under a new id with new texts, and generated templates covering every block, a new seed
 * a set. Each as a client holds it: parsed from the JSON text it fetched (flat strings, objects of
 * one shape), not the objects and concatenated strings that asNewTemplate and toHydrated build.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { asNewTemplate } from "../engine/scripts/new-template.js";
import { toHydrated } from "../engine/test/support/editor-form.js";
import { CONTEXT, generateTemplates, MERGE_TAGS } from "../engine/test/support/generated-templates.js";

export type Json = Record<string, unknown>;
export interface Case {
  readonly template: Json;
  readonly dynamicData: Json;
}

const asClientHoldsIt = (template: Json): Json => JSON.parse(JSON.stringify(template)) as Json;

/** The realistic newsletter's case file (its template as the fixtures hold it, its data). */
export const NEWSLETTER_CASE = fileURLToPath(new URL("../fixtures/render/realistic-newsletter/case.json", import.meta.url));

const fixture = JSON.parse(readFileSync(NEWSLETTER_CASE, "utf8")) as {
  template: Json;
  dynamic_data: Json;
};
/** The newsletter in its hydrated form, as every new one below is made from. */
export const newsletter: Case = { template: toHydrated(fixture.template), dynamicData: fixture.dynamic_data };

let fresh = 0;
/** `count` copies of the newsletter, each under a template id never used before, its texts new too. */
export function newNewsletters(count: number): Case[] {
  return Array.from({ length: count }, () => {
    const n = fresh++;
    return { ...newsletter, template: asClientHoldsIt({ ...asNewTemplate(newsletter.template, n), template_id: `newsletter-${n}` }) };
  });
}

let seed = 1;
const generatedData = { merge_tags: MERGE_TAGS, context: CONTEXT };
/** A set of `count` generated templates no earlier set repeats (a seed per set). */
export function newGenerated(count: number): Case[] {
  return generateTemplates(count, seed++).map((c) => ({ template: asClientHoldsIt(toHydrated(c.template)), dynamicData: generatedData }));
}
