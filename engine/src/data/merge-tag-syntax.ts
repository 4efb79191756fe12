/**
 * Merge tags written wrong. A tag the reader does not recognise is not a tag: it reaches every
 * recipient as the text it is (`Hi {{first_name}, thanks`), and in a link it is the link
 * (`href="{{url.dashboard}"`). These checks find what was almost a tag, say where it is, and how to
 * write it; the document's checks (document/checks/) run them on every prop that holds tags.
 */
import { nearestName } from "../base/nearest.js";
import { locateMergeTags, MERGE_TAG_GROUPS, parseMergeTags } from "./merge-tags.js";

export type MergeTagMistakeCode =
  | "MERGE_TAG_UNCLOSED"
  | "MERGE_TAG_UNOPENED"
  | "MERGE_TAG_EXTRA_BRACES"
  | "MERGE_TAG_SINGLE_BRACES"
  | "MERGE_TAG_EMPTY"
  | "MERGE_TAG_BAD_NAME"
  | "MERGE_TAG_UNKNOWN_GROUP"
  | "MERGE_TAG_BAD_DEFAULT"
  | "MERGE_TAG_NOT_A_URL";

export interface MergeTagMistake {
  readonly code: MergeTagMistakeCode;
  /** Where the mistake starts in the text. */
  readonly index: number;
  /** The mistake as written. */
  readonly text: string;
  readonly message: string;
  readonly hint: string;
}

/** How much of an unclosed tag a message quotes. */
const QUOTED = 40;
const NAME_START = /^[A-Za-z_]/;
const VALID_NAME = /^[A-Za-z_][\w-]*(?:\.[\w-]+)*$/;

const mistake = (code: MergeTagMistakeCode, index: number, text: string, message: string, hint: string): MergeTagMistake => ({
  code,
  index,
  text,
  message,
  hint,
});

/** A name as a tag can have it: spaces and other characters become `_`, a leading digit gets one before it. */
function tagName(written: string): string {
  const name = written
    .trim()
    .replace(/[^\w.-]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return NAME_START.test(name) ? name : `_${name}`;
}

/** What is wrong inside `{{ … }}` that the reader did not take as a tag. */
function badBody(body: string, index: number, text: string): MergeTagMistake {
  const [written = "", ...rest] = body.split("|");
  const qualified = /^\s*(text|url|attr)\.(.*)$/s.exec(written);
  const name = (qualified ? qualified[2]! : written).trim();
  const group = qualified ? `${qualified[1]}.` : "";
  if (name === "")
    return mistake(
      "MERGE_TAG_EMPTY",
      index,
      text,
      `The merge tag ${text} names no value: it is printed as it is`,
      group === ""
        ? "Write the value's name between the braces, e.g. {{ first_name }}, or remove them"
        : `Write the value's name after the group: {{ ${group}name }}`,
    );
  if (rest.length > 0 && VALID_NAME.test(name))
    return mistake(
      "MERGE_TAG_BAD_DEFAULT",
      index,
      text,
      `The default of ${text} is empty or cannot be read: the tag is printed as it is`,
      `Write the default after the bar, in quotes: {{ ${group}${name}|'friend' }}, or leave the bar out`,
    );
  const reason = /^\d/.test(name) ? "starts with a digit" : /\s/.test(name) ? "has a space in it" : "has characters a tag name cannot have";
  return mistake(
    "MERGE_TAG_BAD_NAME",
    index,
    text,
    `The merge tag ${text} ${reason}: it is printed as it is`,
    `A name starts with a letter or _ and holds letters, digits, _ and -, dots between parts: e.g. {{ ${group}${tagName(name)} }} (rename the value to match)`,
  );
}

/** The name an unclosed or unopened tag was meant to have, for the hint. */
const meantName = (text: string): string | undefined => /((?:text|url|attr)\.)?[A-Za-z_][\w-]*(?:\.[\w-]+)*/.exec(text)?.[0];

/**
 * Every mistake in one string's merge tags, in order. Well-formed tags are checked too: an unknown
 * group (`{{ ulr.dashboard }}` reads a value named "ulr.dashboard"), a default whose quote is not
 * closed (printed with its quote), extra braces around a tag (printed around its value).
 */
export function mergeTagMistakes(input: string): MergeTagMistake[] {
  if (!input.includes("{") && !input.includes("}")) return [];
  const found: MergeTagMistake[] = [];
  /** Text already accounted for: well-formed tags and the mistakes found, as [start, end). */
  const taken: [number, number][] = [];
  const isTaken = (at: number) => taken.some(([start, end]) => at >= start && at < end);

  for (const { ref, index, bareFallback } of locateMergeTags(input)) {
    const end = index + ref.source.length;
    taken.push([index, end]);
    const before = input[index - 1] === "{";
    const after = input[end] === "}";
    if (before || after) {
      const start = before ? index - 1 : index;
      const text = input.slice(start, after ? end + 1 : end);
      taken.push([start, after ? end + 1 : end]);
      found.push(
        mistake(
          "MERGE_TAG_EXTRA_BRACES",
          start,
          text,
          `${text} has a brace too many: the extra brace is printed beside the value`,
          `Write ${ref.source.replace(/^\{\{\s*/, "{{ ").replace(/\s*\}\}$/, " }}")} (values are escaped for where they land; there is no raw form)`,
        ),
      );
    }
    if (bareFallback !== undefined && /^['"]|['"]$/.test(bareFallback.trim())) {
      const quote = /['"]/.exec(bareFallback)![0];
      found.push(
        mistake(
          "MERGE_TAG_BAD_DEFAULT",
          index,
          ref.source,
          `The default of ${ref.source} has a ${quote} that is not closed: it is printed with the quote`,
          `Close the quote: {{ ${ref.group ? `${ref.group}.` : ""}${ref.name}|${quote}${bareFallback.trim().replace(/^['"]|['"]$/g, "")}${quote} }}`,
        ),
      );
    }
    const dot = ref.name.indexOf(".");
    if (ref.group === undefined && dot > 0) {
      const written = ref.name.slice(0, dot);
      const group = nearestName(written, MERGE_TAG_GROUPS);
      if (group !== undefined)
        found.push(
          mistake(
            "MERGE_TAG_UNKNOWN_GROUP",
            index,
            ref.source,
            `${ref.source} names the group "${written}", which does not exist: it reads a value named "${ref.name}"`,
            `Did you mean {{ ${group}.${ref.name.slice(dot + 1)} }}? The groups are text, url and attr`,
          ),
        );
    }
  }

  for (let open = input.indexOf("{{"); open !== -1; open = input.indexOf("{{", open + 1)) {
    if (isTaken(open) || isTaken(open + 1)) continue;
    const close = input.indexOf("}}", open + 2);
    const next = input.indexOf("{{", open + 2);
    if (close !== -1 && (next === -1 || close < next) && !isTaken(close)) {
      const text = input.slice(open, close + 2);
      taken.push([open, close + 2]);
      found.push(badBody(input.slice(open + 2, close), open, text));
      continue;
    }
    const stop = [next, input.indexOf("<", open), input.indexOf("\n", open)].filter((at) => at > open);
    const oneBrace = /^\{\{[^{}]*\}(?!\})/.exec(input.slice(open));
    const text = oneBrace ? oneBrace[0] : input.slice(open, Math.min(open + QUOTED, ...stop, input.length)).trimEnd();
    taken.push([open, open + text.length]);
    const name = meantName(text.slice(2));
    found.push(
      oneBrace
        ? mistake("MERGE_TAG_UNCLOSED", open, text, `The merge tag ${text} ends with one brace: it is printed as it is`, `Close it with two: ${text}}`)
        : mistake(
            "MERGE_TAG_UNCLOSED",
            open,
            text,
            `The merge tag ${text} is not closed: it is printed as it is`,
            `Close it with }}${name ? `: {{ ${name} }}` : ""}`,
          ),
    );
  }

  for (let close = input.indexOf("}}"); close !== -1; close = input.indexOf("}}", close + 1)) {
    if (isTaken(close) || isTaken(close + 1) || (close > 0 && isTaken(close - 1))) continue;
    const start = Math.max(0, input.lastIndexOf(">", close) + 1, input.lastIndexOf(" ", close - 1) + 1);
    const text = input.slice(start, close + 2);
    taken.push([start, close + 2]);
    const name = meantName(text);
    found.push(
      mistake(
        "MERGE_TAG_UNOPENED",
        start,
        text,
        `${text} closes a merge tag that was never opened: it is printed as it is`,
        `Open it with {{${name ? `: {{ ${name} }}` : ""}`,
      ),
    );
  }

  // A name of two characters or more in single braces: how other tools write tags (`{first_name}`).
  for (const match of input.matchAll(/(?<!\{)\{\s*([A-Za-z_][\w-]+(?:\.[\w-]+)*)\s*\}(?!\})/g)) {
    if (isTaken(match.index)) continue;
    found.push(
      mistake(
        "MERGE_TAG_SINGLE_BRACES",
        match.index,
        match[0],
        `${match[0]} has one brace on each side: it is printed as it is, not replaced`,
        `A merge tag has two braces on each side: {{ ${match[1]} }}`,
      ),
    );
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * A URL that takes its whole value from a tag of the text or attr group (`{{ text.dashboard }}` as
 * a link): those groups hold text to show, a link's address belongs in the url group, and a value
 * that is not a URL leaves the link going nowhere.
 */
export function textTagAsUrl(url: string): MergeTagMistake | undefined {
  const parts = parseMergeTags(url.trimStart());
  const first = parts[0];
  if (first === undefined || typeof first === "string" || (first.group !== "text" && first.group !== "attr")) return undefined;
  return mistake(
    "MERGE_TAG_NOT_A_URL",
    url.indexOf(first.source),
    first.source,
    `The link takes its whole address from ${first.source}, a ${first.group} value: a value that is not a URL leaves it going nowhere`,
    `Put the address under merge_tags.url and write {{ url.${first.name} }}`,
  );
}
