/**
 * The studio's sample dynamic data: what was saved for a template, or a starting point built from
 * what the template uses (`inspectTemplate`: every merge tag and visibility context key).
 */
import { inspectTemplate } from "@mailrender/engine";

export interface SampleData {
  merge_tags: { text: Record<string, string>; url: Record<string, string>; attr: Record<string, string> };
  context: Record<string, string | number | boolean>;
}

/** Each tag under the group it reads, valued with its default, or a placeholder a reader recognises. */
export function sampleFromTemplate(template: unknown): SampleData {
  const sample: SampleData = { merge_tags: { text: {}, url: {}, attr: {} }, context: {} };
  const inspected = inspectTemplate(template);
  for (const tag of inspected.mergeTags) {
    sample.merge_tags[tag.reads][tag.name] = tag.default ?? (tag.reads === "url" ? `https://example.com/${tag.name}` : tag.name.replace(/[_-]+/g, " "));
  }
  for (const key of inspected.contextKeys) sample.context[key] = "";
  return sample;
}
