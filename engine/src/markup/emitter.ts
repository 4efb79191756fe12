/**
 * The emitter writes template strings into a target's source. Literal text is escaped for its
 * position right away; every merge tag becomes a slot token that survives the MJML compile and the
 * minifier, and is replaced by the recipient's escaped value only at the very end (see
 * `substitute.ts`). This is what lets a compiled template be cached and reused for every recipient.
 */

import { escapeHtml, escapeJsx } from "../data/escape.js";
import { type MergeTagRef, parseMergeTags } from "../data/merge-tags.js";

/** `markup` = HTML and MJML (HTML/XML escaping); `jsx` = React Email source. */
export type Flavor = "markup" | "jsx";

/** Where a value lands; decides the group a bare tag reads and how its value is escaped. */
export type SlotPosition = "text" | "attr" | "url" | "url-part";

export interface Slot {
  readonly ref: MergeTagRef;
  readonly position: SlotPosition;
  /** Where the tag is written in the template: the prop holding it, or its node (render warnings name it). */
  readonly path: readonly string[];
}

/**
 * Where in the template a tag being emitted is written (set by the document walk for each block),
 * from the tag and the template text being emitted with it.
 */
/** Where a tag emitted while `site` was being written stands in the template (a site is the walk's own: for the emitter, a token). */
export type Locator = (site: object | undefined, ref: MergeTagRef, written: string | undefined, position: SlotPosition) => readonly string[];

const TOKEN_OPEN = "\uE000";
const TOKEN_CLOSE = "\uE001";
export const SLOT_TOKEN_PATTERN = /\uE000(\d+)\uE001/g;

/** Private-use characters delimit slot tokens; they are removed from template text on the way in. */
export function stripTokenDelimiters(value: string): string {
  return value.includes(TOKEN_OPEN) || value.includes(TOKEN_CLOSE) ? value.replace(/[\uE000\uE001]/g, "") : value;
}

export class Emitter {
  readonly slots: Slot[] = [];
  readonly escape: (value: string) => string;
  /** Finds where a tag is written, given the `site` it was emitted at; the document walk sets it once. */
  locate: Locator = () => [];
  /**
   * What is being written now, for `locate`; the document walk sets it around each block. A
   * reference, not a closure per block: a closure is an object and its captured variables in QuickJS.
   */
  site: object | undefined = undefined;

  constructor(readonly flavor: Flavor) {
    this.escape = flavor === "jsx" ? escapeJsx : escapeHtml;
  }

  /** A plain-text prop shown as element text. */
  text(value: string): string {
    return this.emit(value, "text");
  }

  /** A plain-text prop placed in a double-quoted attribute. */
  attr(value: string): string {
    return this.emit(value, "attr");
  }

  /** A URL prop placed in `href`/`src`. A tag at its start supplies the whole URL. */
  url(value: string): string {
    return this.emit(value, "url");
  }

  /** Template-authored text that is already markup-safe (escapes only `{`/`}` for JSX). */
  trusted(value: string, position: "text" | "attr" | "url"): string {
    return this.emit(value, position, true);
  }

  slot(ref: MergeTagRef, position: SlotPosition, written?: string): string {
    // The path is looked up when read (a warning, a saved layout), not for every tag: looking it up
    // reads each string prop of the block, ~150 K instructions in QuickJS, and most renders warn of nothing.
    let locate: Locator | undefined = this.locate;
    const site = this.site;
    let path: readonly string[] | undefined;
    this.slots.push({
      ref,
      position,
      get path() {
        if (locate !== undefined) {
          path = locate(site, ref, written, position);
          locate = undefined;
        }
        return path!;
      },
    });
    return `${TOKEN_OPEN}${this.slots.length - 1}${TOKEN_CLOSE}`;
  }

  private emit(value: string, position: "text" | "attr" | "url", trusted = false): string {
    const text = stripTokenDelimiters(value);
    // Most values hold no tag: escaped whole, without parts to make and walk (for every text and attribute).
    if (!text.includes("{{")) return trusted ? this.escapeTrusted(text, position) : this.escape(text);
    const parts = parseMergeTags(text);
    let out = "";
    let sawLiteral = false;
    // An index loop: QuickJS makes an iterator for each `for…of`, and this runs for every text and attribute.
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (typeof part === "string") {
        out += trusted ? this.escapeTrusted(part, position) : this.escape(part);
        if (!sawLiteral && part.trim() !== "") sawLiteral = true;
      } else {
        const slotPosition: SlotPosition = position === "url" && sawLiteral ? "url-part" : position;
        out += this.slot(part, slotPosition, value);
        sawLiteral = true;
      }
    }
    return out;
  }

  private escapeTrusted(value: string, position: "text" | "attr" | "url"): string {
    if (this.flavor === "markup") return position === "text" || !value.includes('"') ? value : value.replace(/"/g, "&quot;");
    const braces = value.replace(/[{}]/g, (ch) => (ch === "{" ? "&#123;" : "&#125;"));
    // A `<` or `>` that is text in HTML (`a < b`) would open or close an element in JSX.
    return position === "text" ? braces.replace(/[<>]/g, (ch) => (ch === "<" ? "&lt;" : "&gt;")) : braces.replace(/"/g, "&quot;");
  }
}
