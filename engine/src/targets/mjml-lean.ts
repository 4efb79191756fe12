/**
 * The attributes of the MJML body that change nothing, removed: those equal to the value mjml uses
 * without them (the component's default under the document's `mj-all`), a background of
 * `transparent`, a column padding of zero and a text's normal weight. mjml writes each of them into the html anyway, and a
 * column with a padding, even zero, gets a second table around its content; so each costs the html
 * target bytes, and the mjml target's reader attention. Blocks write their attributes plainly; this
 * one pass knows mjml's defaults (from the compiler's components, their one source).
 */
import { occurrences } from "../base/literal-scan.js";
import { defaultAttributesOf } from "../mjml-to-html/index.js";

/** Values mjml has no default for that still reach the html, by tag and attribute. */
const NO_EFFECT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "mj-section": { "background-color": "transparent" },
  "mj-wrapper": { "background-color": "transparent" },
  "mj-column": { "background-color": "transparent", padding: "0px" },
  // Nothing around a text block sets a weight: normal is what it inherits.
  "mj-text": { "font-weight": "normal" },
};

/** `<mj-name` at the sticky position, then one ` name="value"` at a time, then the tag's end. */
const TAG_NAME = /<(mj-[a-z-]+)/y;
const ATTRIBUTE = /\s+([a-z-]+)="([^"]*)"/y;
const TAG_END = /\s*\/?>/y;

/** `body` (MJML elements, from `<mj-body>` in) without the attributes that change nothing; `all`: `mj-all`'s attributes. */
export function withoutNoOpAttributes(body: string, all: Readonly<Record<string, string>>): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(body, "<mj-")) {
    TAG_NAME.lastIndex = at;
    const tag = TAG_NAME.exec(body)?.[1] as string;
    const defaults = defaultAttributesOf(tag);
    const noEffect = NO_EFFECT[tag];
    let kept = "";
    let dropped = false;
    ATTRIBUTE.lastIndex = TAG_NAME.lastIndex;
    let end = ATTRIBUTE.lastIndex;
    for (let match = ATTRIBUTE.exec(body); match !== null; match = ATTRIBUTE.exec(body)) {
      const [text, name, value] = match as unknown as [string, string, string];
      end = ATTRIBUTE.lastIndex;
      if (value === (all[name] ?? defaults?.[name]) || value === noEffect?.[name]) dropped = true;
      else kept += text;
    }
    TAG_END.lastIndex = end;
    if (!dropped || !TAG_END.test(body)) continue;
    out += `${body.slice(copied, at)}<${tag}${kept}`;
    copied = end;
  }
  return out + body.slice(copied);
}
