/**
 * What the browser checks read from a shown page, the same in every engine: the functions below run
 * inside the page (sent as source text, so each is self-contained) through the engine-neutral View.
 */
import type { View } from "./engines/engine.js";
import type { RowColumns, TextBlockLook } from "./expectations.js";

export interface SeenContent {
  /** The visible text, as drawn (not compacted). */
  readonly text: string;
  /** The targets of the visible links. */
  readonly links: string[];
  /** How the text of each visible link is drawn: target, colour, underline. */
  readonly linkLooks: string[];
}

export function visibleContent(view: View): Promise<SeenContent> {
  return view.evaluate(() => {
    const shown = (element: Element | null) =>
      element?.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && element.getClientRects().length > 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (shown(node.parentElement)) text += node.textContent ?? "";
    const visibleLinks = [...document.querySelectorAll("a[href]")].filter(shown);
    const links = visibleLinks.map((a) => a.getAttribute("href") ?? "");
    // Each visible text inside a link, in the colour it is drawn in and whether the link's (or an inner element's) underline runs under it.
    const linkLooks = visibleLinks.flatMap((a) => {
      const looks: string[] = [];
      const texts = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        const parent = node.parentElement;
        const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
        if (!parent || text === "" || !shown(parent)) continue;
        let underlined = false;
        for (let e: Element | null = parent; e && (e === a || a.contains(e)); e = e.parentElement)
          underlined ||= getComputedStyle(e).textDecorationLine.includes("underline");
        looks.push(`${a.getAttribute("href")} "${text}": ${getComputedStyle(parent).color}${underlined ? ", underlined" : ""}`);
      }
      return looks;
    });
    return { text, links, linkLooks };
  });
}

/** The images with a source that did not load (`#` is what the engine writes for a dropped unsafe URL: no image, its alt text shows). */
export function brokenImages(view: View): Promise<string[]> {
  return view.evaluate(() =>
    [...document.images].filter((img) => !["", "#"].includes(img.getAttribute("src") ?? "") && (!img.complete || img.naturalWidth === 0)).map((img) => img.src),
  );
}

/** The page's width (wider than the viewport: the reader scrolls sideways) and the viewport's, scrollbars left out. */
export function widths(view: View): Promise<{ page: number; viewport: number }> {
  return view.evaluate(() => ({
    page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    viewport: document.documentElement.clientWidth,
  }));
}

/**
 * Rules of the phone stylesheet aimed at a block (its `mr-b<n>` class) that select nothing in the
 * page: an override written for markup the target does not have (each target draws some blocks with
 * other elements) never reaches a phone.
 */
export function unmatchedMobileRules(view: View): Promise<string[]> {
  return view.evaluate(() => {
    const unmatched: string[] = [];
    const visit = (rules: CSSRuleList, phone: boolean) => {
      for (const rule of rules) {
        if (rule instanceof CSSMediaRule) visit(rule.cssRules, phone || rule.conditionText.includes("max-width"));
        else if (phone && rule instanceof CSSStyleRule && /\.mr-b\d/.test(rule.selectorText) && document.querySelector(rule.selectorText) === null)
          unmatched.push(rule.cssText);
      }
    };
    // The document's own stylesheets (a web font's, from another origin, cannot be read and has no block rules).
    for (const sheet of document.styleSheets) if (sheet.href === null) visit(sheet.cssRules, false);
    return unmatched;
  });
}

type Box = { left: number; right: number; top: number; bottom: number };

/** A marker's text as drawn: its box, and the direction and alignment of the element holding it. */
interface MarkedText {
  readonly box: Box;
  readonly direction: string;
  readonly textAlign: string;
}

/** Where each marker text is drawn and how, found in document order (a later marker's text comes after an earlier one's). */
function markedTexts(view: View, markers: string[], after: number): Promise<{ found: Array<MarkedText | null>; end: number }> {
  return view.evaluate(
    (markers: string[], after: number) => {
      const squeeze = (s: string) => s.replace(/[\u034f\u200a-\u200f\u2028\u2029\ufeff\u00ad]/g, "").replace(/\s+/g, "");
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent?.checkVisibility() && parent.getClientRects().length > 0) nodes.push(node as Text);
      }
      let index = after;
      const found = markers.map((marker) => {
        const prefix = marker.slice(0, 12);
        for (let i = index; i < nodes.length; i++) {
          if (!squeeze(nodes[i]!.data).includes(prefix)) continue;
          index = i + 1;
          const range = document.createRange();
          range.selectNodeContents(nodes[i]!);
          const r = range.getBoundingClientRect();
          const style = getComputedStyle(nodes[i]!.parentElement!);
          return { box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom }, direction: style.direction, textAlign: style.textAlign };
        }
        return null;
      });
      return { found, end: index };
    },
    markers,
    after,
  );
}

/**
 * Rows whose columns are not where their reader looks for them: side by side above the breakpoint
 * (the first column on the right in a right-to-left email) and, below it, stacked in reading order
 * or, for a row that does not stack (`mobileStack: false`), side by side still.
 */
export async function columnProblems(view: View, rows: RowColumns[], width: number): Promise<string[]> {
  const problems: string[] = [];
  let after = 0;
  for (const row of rows) {
    const { found, end } = await markedTexts(view, row.markers, after);
    after = end;
    const stacks = row.mobileStack && width <= row.breakpoint;
    for (let i = 1; i < found.length; i++) {
      const a = found[i - 1]?.box;
      const b = found[i]?.box;
      if (!a || !b) {
        problems.push(`${row.row}: column text "${row.markers[a ? i : i - 1]}" not found`);
        continue;
      }
      const stacked = b.top >= a.bottom - 1;
      // Apart across the row, in its direction (their tops may differ: columns align vertically as told; stacked ones overlap across).
      const inOrder = row.mirrored ? b.right <= a.left + 1 : b.left >= a.right - 1;
      const order = row.mirrored ? "right to left" : "left to right";
      if (stacks && !stacked) problems.push(`${row.row}: columns ${i} and ${i + 1} side by side at ${width} px, expected stacked`);
      if (!stacks && !inOrder)
        problems.push(
          `${row.row}: columns ${i} and ${i + 1} ${stacked ? "stacked" : "out of order"} at ${width} px, expected side by side ${order}${row.mobileStack ? "" : " (mobileStack false)"}`,
        );
    }
  }
  return problems;
}

/** The document's `dir` and the direction its body's text runs in. */
export function documentDirection(view: View): Promise<{ dir: string | null; body: string }> {
  return view.evaluate(() => ({ dir: document.documentElement.getAttribute("dir"), body: getComputedStyle(document.body).direction }));
}

/** A computed `text-align` as the side it aligns to (`start`/`end` by the direction; engines' own `-webkit-right` and such as the side). */
function side(textAlign: string, direction: string): string {
  const value = textAlign.replace(/^-(webkit|moz)-/, "");
  if (value === "start" || value === "end") return (value === "start") === (direction === "rtl") ? "right" : "left";
  return value;
}

/** Text blocks drawn in another direction, or aligned to another side, than their reader must see. */
export async function textBlockProblems(view: View, looks: TextBlockLook[]): Promise<string[]> {
  const { found } = await markedTexts(
    view,
    looks.map((look) => look.marker),
    0,
  );
  return looks.flatMap((look, index) => {
    const seen = found[index];
    if (!seen) return [`${look.block}: text "${look.marker}" not found`];
    const problems: string[] = [];
    if (seen.direction !== look.direction) problems.push(`${look.block}: runs ${seen.direction}, expected ${look.direction}`);
    const aligned = side(seen.textAlign, seen.direction);
    if (look.align !== undefined && aligned !== look.align) problems.push(`${look.block}: aligned ${aligned} (${seen.textAlign}), expected ${look.align}`);
    return problems;
  });
}
