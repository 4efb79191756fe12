/**
 * What the browser checks read from a shown page, the same in every engine: the functions below run
 * inside the page (sent as source text, so each is self-contained) through the engine-neutral View.
 */
import type { View } from "./engines/engine.js";
import type { RowColumns } from "./expectations.js";

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

/** Where each marker text is drawn, found in document order (a later column's text comes after an earlier one's). */
function markerBoxes(view: View, markers: string[], after: number): Promise<{ boxes: Array<Box | null>; end: number }> {
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
      const boxes = markers.map((marker) => {
        const prefix = marker.slice(0, 12);
        for (let i = index; i < nodes.length; i++) {
          if (!squeeze(nodes[i]!.data).includes(prefix)) continue;
          index = i + 1;
          const range = document.createRange();
          range.selectNodeContents(nodes[i]!);
          const r = range.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }
        return null;
      });
      return { boxes, end: index };
    },
    markers,
    after,
  );
}

/** Rows whose columns do not stack on a phone as their `mobileStack` says (stacked, or side by side). */
export async function columnProblems(view: View, rows: RowColumns[], width: number): Promise<string[]> {
  const problems: string[] = [];
  let after = 0;
  for (const row of rows) {
    const { boxes, end } = await markerBoxes(view, row.markers, after);
    after = end;
    for (let i = 1; i < boxes.length; i++) {
      const a = boxes[i - 1];
      const b = boxes[i];
      if (!a || !b) {
        problems.push(`${row.row}: column text "${row.markers[a ? i : i - 1]}" not found`);
        continue;
      }
      const stacked = b.top >= a.bottom - 1;
      const sideBySide = b.left >= a.right - 1 && b.top < a.bottom;
      if (row.mobileStack && !stacked) problems.push(`${row.row}: columns ${i} and ${i + 1} side by side at ${width} px, expected stacked`);
      if (!row.mobileStack && !sideBySide)
        problems.push(`${row.row}: columns ${i} and ${i + 1} stacked at ${width} px, expected side by side (mobileStack false)`);
    }
  }
  return problems;
}
