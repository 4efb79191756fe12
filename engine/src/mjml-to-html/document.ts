/**
 * The HTML document around the rendered body: mjml-core 5.4.1's skeleton and the head parts it
 * builds (font imports, media queries, component and document styles), and the two passes over
 * Outlook conditional comments that mjml2html makes.
 */
import { contains } from "../base/literal-scan.js";
import { isSpace } from "../base/whitespace.js";
import type { GlobalData, MjmlNode } from "./component.js";
import { innerMarkup, type MarkupValue, minifiedTemplate, minifyInner } from "./conditional-template.js";
import { ENDIF, type HtmlOutput, MSO_IE } from "./html-output.js";

export { minifyInner };

function buildFontsTags(body: () => string, fonts: Readonly<Record<string, string>>): string {
  const toImport: string[] = [];
  const content = Object.keys(fonts).length > 0 ? body() : "";
  for (const [name, url] of Object.entries(fonts)) {
    // as in mjml, the name is used as a regular expression
    const regex = new RegExp(`"[^"]*font-family:[^"]*${name}[^"]*"`, "gmi");
    if (regex.test(content)) toImport.push(url);
  }
  if (toImport.length === 0) return "";
  return `
      <!--[if !mso]><!-->
        ${toImport.map((url) => `<link href="${url}" rel="stylesheet" type="text/css">`).join("\n")}
        <style type="text/css">
          ${toImport.map((url) => `@import url(${url});`).join("\n")}
        </style>
      <!--<![endif]-->\n
    `;
}

function groupMediaQueries(mediaQueries: Readonly<Record<string, string>>, prefix = ""): string[] {
  const grouped = new Map<string, string[]>();
  for (const [className, mediaQuery] of Object.entries(mediaQueries)) {
    const selectors = grouped.get(mediaQuery) ?? [];
    selectors.push(`${prefix}.${className}`);
    grouped.set(mediaQuery, selectors);
  }
  return [...grouped].map(([mediaQuery, selectors]) => `${selectors.join(", ")} ${mediaQuery}`);
}

function buildMediaQueriesTags(breakpoint: string, mediaQueries: Readonly<Record<string, string>>, forceOWADesktop: boolean): string {
  if (Object.keys(mediaQueries).length === 0) return "";
  const baseMediaQueries = groupMediaQueries(mediaQueries);
  const thunderbirdMediaQueries = groupMediaQueries(mediaQueries, ".moz-text-html ");
  const owaQueries = baseMediaQueries.map((mq) => `[owa] ${mq}`);
  return `
    <style type="text/css">
      @media only screen and (min-width:${breakpoint}) {
        ${baseMediaQueries.join("\n")}
      }
    </style>
    <style media="screen and (min-width:${breakpoint})">
      ${thunderbirdMediaQueries.join("\n")}
    </style>
    ${``}
    ${forceOWADesktop ? `<style type="text/css">\n${owaQueries.join("\n")}\n</style>` : ``}
  `;
}

function buildStyleFromComponents(globalData: GlobalData): string {
  const styles = [...globalData.componentsHeadStyle, ...Object.values(globalData.headStyle)];
  if (styles.length === 0) return "";
  return `
    <style type="text/css">${styles.reduce((result, style) => `${result}\n${style(globalData.breakpoint)}`, "")}
    </style>`;
}

function buildStyleFromTags(styles: readonly string[]): string {
  if (styles.length === 0) return "";
  return ` 
    <style type="text/css">${styles.reduce((result, style) => `${result}\n${style}`, "")}
    </style>`;
}

/**
 * mjml-core's skeleton up to the body, given the body for its font check (each mj-font whose name
 * the body's inline styles mention is imported).
 */
function skeletonHead(globalData: GlobalData, body: () => string): string {
  const { lang, dir, title, breakpoint } = globalData;
  return `<!doctype html>
<html lang="${lang}" dir="${dir}" xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">
  <head>
    <title>${title}</title>
    <!--[if !mso]><!-->
    <meta http-equiv="X-UA-Compatible" content="IE=edge">
    <!--<![endif]-->
    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style type="text/css">
      #outlook a { padding:0; }
      body { margin:0;padding:0;-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%; }
      table, td { border-collapse:collapse;mso-table-lspace:0pt;mso-table-rspace:0pt; }
      img { border:0;height:auto;line-height:100%; outline:none;text-decoration:none;-ms-interpolation-mode:bicubic; }
      p { display:block;margin:13px 0; }
    </style>
    <!--[if mso]>
    <noscript>
    <xml>
    <o:OfficeDocumentSettings>
      <o:AllowPNG/>
      <o:PixelsPerInch>96</o:PixelsPerInch>
    </o:OfficeDocumentSettings>
    </xml>
    </noscript>
    <![endif]-->
    <!--[if lte mso 11]>
    <style type="text/css">
      .mj-outlook-group-fix { width:100% !important; }
    </style>
    <![endif]-->
    ${buildFontsTags(body, globalData.fonts)}
    ${buildMediaQueriesTags(breakpoint, globalData.mediaQueries, globalData.forceOWADesktop)}
    ${buildStyleFromComponents(globalData)}
    ${buildStyleFromTags(globalData.style)}
    ${globalData.headRaw.filter((raw) => raw !== null).join("\n")}
  </head>
  `;
}

const SKELETON_END = "\n</html>\n  ";

const CONDITION_START = "<!--[if";

/**
 * The end of a conditional comment's opening (`<!--[if mso | IE]>`) that starts at `start`, or -1:
 * what `<!--\[if\s[^\]]+]>` matches there. Undefined when that depends on what follows `content`.
 */
function conditionStartEnd(content: string, start: number): number | undefined {
  const afterIf = start + CONDITION_START.length;
  if (afterIf >= content.length) return undefined;
  if (!isSpace(content.charCodeAt(afterIf))) return -1;
  const bracket = content.indexOf("]", afterIf + 1);
  if (bracket === -1 || bracket + 1 === content.length) return undefined;
  if (bracket === afterIf + 1 || content.charCodeAt(bracket + 1) !== 0x3e /* > */) return -1;
  return bracket + 2;
}

/**
 * Removes the whitespace between tags inside conditional comments (mjml-core's
 * minifyOutlookConditionnals: `content.replace(/(<!--\[if\s[^\]]+]>)([\s\S]*?)(<!\[endif]-->)/gm, …)`).
 * The comments are found with indexOf (see src/base/literal-scan.ts) rather than that expression: the
 * same matches, without the expression's lazy scan of the whole document, which an interpreter like
 * the release build's QuickJS runs at every character.
 */
export function minifyOutlookConditionnals(content: string): string {
  const writer = new BodyWriter(true);
  writer.scan(content);
  return writer.finish().join("");
}

/**
 * Appends the minified pieces of one part to `pieces` (whose last is the text the part continues):
 * the text before each conditional comment ending with its opening, its inner markup minified,
 * ENDIF; then the text after the last. What depends on what follows the part is left: from the
 * first comment opened and not closed in it (or an opening cut at its end) on, returned to be
 * minified with what follows; the matches before it are the same whatever follows. The comments
 * are looked for one at a time, so the search stops at the one left open. `endifFrom`: where the
 * part's first ENDIF after its first comment's opening starts at the earliest (see endifSearchFrom).
 */
function minifyPart(part: string, last: boolean, pieces: string[], inners: MinifiedInners, endifFrom: number): string | undefined {
  let copied = 0;
  let rest = -1;
  for (let start = part.indexOf(CONDITION_START); start !== -1; start = part.indexOf(CONDITION_START, start + CONDITION_START.length)) {
    if (start < copied) continue;
    const innerStart = conditionStartEnd(part, start);
    if (innerStart === undefined && !last) {
      rest = start;
      break;
    }
    if (innerStart === undefined || innerStart === -1) continue;
    const end = part.indexOf(ENDIF, Math.max(innerStart, endifFrom));
    if (end === -1 && !last) {
      rest = start;
      break;
    }
    if (end === -1) break;
    pieces[pieces.length - 1] += part.slice(copied, innerStart);
    pieces.push(inners.ofScanned(part.slice(innerStart, end)), ENDIF, "");
    copied = end + ENDIF.length;
  }
  // An opening cut at the end of the part (`<!--[i` + `f mso]>`) is found only with what follows.
  if (rest === -1 && !last) rest = startOfCut(part, CONDITION_START);
  if (rest === -1) {
    pieces[pieces.length - 1] += part.slice(copied);
    return undefined;
  }
  pieces[pieces.length - 1] += part.slice(copied, rest);
  return part.slice(rest);
}

/**
 * Where, in the rest minifyPart returns and whatever is appended to it, the first ENDIF after its
 * first comment's opening starts at the earliest: that comment was left open, so the rest holds no
 * ENDIF after its opening but one cut at its end. What is appended is searched, not the rest again.
 */
function endifSearchFrom(rest: string): number {
  return Math.max(0, rest.length - (ENDIF.length - 1));
}

/** Whether `literal` starts in `text` before `end`. */
function holdsBefore(text: string, literal: string, end: number): boolean {
  const at = text.indexOf(literal);
  return at !== -1 && at < end;
}

/** Where `text` ends with a proper prefix of `literal` (the longest), or -1. */
function startOfCut(text: string, literal: string): number {
  for (let length = Math.min(literal.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(literal.slice(0, length))) return text.length - length;
  }
  return -1;
}

const MSO_IE_START = /\s*<!--\[if mso \| IE]>/y;

/**
 * Joins adjacent `mso | IE` conditional comments into one (mjml-core's mergeOutlookConditionnals:
 * `replace(/(<!\[endif]-->\s*?<!--\[if mso \| IE]>)/gm, "")`), trying the expression only after an
 * `<![endif]-->`, found with `split`: a match holds one, at its start.
 */
export function mergeOutlookConditionnals(content: string): string {
  const pieces = content.split(ENDIF);
  let output = pieces[0] as string;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    MSO_IE_START.lastIndex = 0;
    output += MSO_IE_START.test(piece) ? piece.slice(MSO_IE_START.lastIndex) : ENDIF + piece;
  }
  return output;
}

/** What a text piece of a BodyWriter holds besides plain markup (see mergePieces). */
const TextPiece = {
  /**
   * Only markup written with `text` and `space`, then perhaps a comment's opening; or after a `text`
   * write, scanned markup without an ENDIF up to a comment's opening.
   */
  Plain: 0,
  /** Only `space` after an ENDIF, then a `<!--[if mso | IE]>` opening: merged away with that ENDIF. */
  Merged: 1,
  /** Scanned text: merged as mergeOutlookConditionnals does. */
  Scanned: 2,
} as const;
type TextPiece = (typeof TextPiece)[keyof typeof TextPiece];

/**
 * The body as minifyOutlookConditionnals leaves it, written in order: the pieces minifyPart makes
 * (text, minified inner, ENDIF, text, …). A conditional a component writes is minified
 * as it is written (each distinct inner once), and a text piece holding only `space` between
 * an ENDIF and a `<!--[if mso | IE]>` is marked to be merged away: neither is searched for. Only
 * scanned markup (what the template's own text brings, or a component's markup with comment syntax
 * in it) goes through minifyPart, and everything written while a comment it opened is still open
 * joins it. With `scanAll`, everything is scanned: the passes over the whole body, in parts.
 */
export class BodyWriter implements HtmlOutput {
  readonly pieces: string[] = [""];
  /** One TextPiece per text piece (pieces[3 * i]). */
  readonly textPieces: TextPiece[] = [TextPiece.Plain];
  private readonly inners: MinifiedInners;
  /** Scanned markup whose minified form depends on what follows it. */
  private pending: string | undefined = undefined;
  /** endifSearchFrom(pending). */
  private pendingEndifFrom = 0;
  /** Whether the last text piece holds only whitespace written (`space`) after an ENDIF. */
  private blankAfterEndif = false;

  /** `host`: where the inner markup of conditionals may be minified natively. */
  constructor(
    private readonly scanAll: boolean,
    host: CompileHost = {},
  ) {
    this.inners = new MinifiedInners(host.minifyConditionalInner);
  }

  text(markup: string): void {
    if (this.pending !== undefined || this.scanAll) {
      this.scan(markup);
      return;
    }
    this.blankAfterEndif = false;
    this.pieces[this.pieces.length - 1] += markup;
  }

  space(whitespace: string): void {
    if (this.pending !== undefined || this.scanAll) {
      this.scan(whitespace);
      return;
    }
    this.pieces[this.pieces.length - 1] += whitespace;
  }

  conditional(before: string, value?: MarkupValue, after?: string): void {
    if (this.pending !== undefined || this.scanAll) {
      this.scan(MSO_IE + innerMarkup(before, value, after) + ENDIF);
      return;
    }
    const minified = after === undefined ? this.inners.ofConstant(before) : this.inners.ofTemplate(before, value, after);
    const { pieces, textPieces } = this;
    if (this.blankAfterEndif) textPieces[textPieces.length - 1] = TextPiece.Merged;
    pieces[pieces.length - 1] += MSO_IE;
    pieces.push(minified, ENDIF, "");
    textPieces.push(TextPiece.Plain);
    this.blankAfterEndif = true;
  }

  scan(markup: string): void {
    this.pending = this.pending === undefined ? markup : this.pending + markup;
    this.flush(false);
  }

  /** The pieces, once everything is written. */
  finish(): string[] {
    this.flush(true);
    return this.pieces;
  }

  private flush(last: boolean): void {
    const part = this.pending;
    if (part === undefined) return;
    const { pieces, textPieces } = this;
    const from = pieces.length - 1;
    const continued = (pieces[from] as string).length;
    // A Plain piece not blank after its ENDIF holds `text` first (the first piece has no ENDIF before
    // it): it starts with no comment's opening. It stays Plain where the part's markup put into it
    // holds no ENDIF either, nor ends with the start of one that what follows could complete: nothing
    // in it to merge. (minifyPart has searched the part: it is flat.)
    const startsWithText = !this.blankAfterEndif;
    this.pending = minifyPart(part, last, pieces, this.inners, this.pendingEndifFrom);
    this.pendingEndifFrom = this.pending === undefined ? 0 : endifSearchFrom(this.pending);
    this.blankAfterEndif = false;
    const putIntoPiece = (pieces[from] as string).length - continued;
    // nothing put into the piece (the part left open whole): no search of it
    const holdsEndif = putIntoPiece > 0 && (holdsBefore(part, ENDIF, putIntoPiece) || (putIntoPiece === part.length && startOfCut(part, ENDIF) !== -1));
    if (!startsWithText || textPieces[from / 3] !== TextPiece.Plain || holdsEndif) {
      textPieces[from / 3] = TextPiece.Scanned;
    }
    if (pieces.length === from + 1) return;
    for (let i = from + 3; i < pieces.length; i += 3) textPieces.push(TextPiece.Scanned);
    // Scanned markup that ends with a comment it closed (a raw's `<!--<![endif]-->`) leaves an empty
    // text piece after that ENDIF: what is written next is as after any ENDIF, not searched.
    if (this.pending === undefined && pieces[pieces.length - 1] === "") {
      textPieces[textPieces.length - 1] = TextPiece.Plain;
      this.blankAfterEndif = true;
    }
  }
}

/**
 * What the compile may ask of the runtime it runs in, each answering undefined where it leaves the
 * work to the JavaScript (the release engine does both in C, engine/runtimes/quickjs/native/: a
 * change to either function is made there too): `minifyConditionalInner`, minifyInner's result;
 * `parseMjml`, parse.ts's tree (`endingTags`: the ending tags' names, each followed by a space).
 */
export interface CompileHost {
  readonly minifyConditionalInner?: ((inner: string) => string | undefined) | undefined;
  readonly parseMjml?: ((mjml: string, endingTags: string) => MjmlNode | undefined) | undefined;
}

/**
 * The minified inner markup of each conditional written without a value: keyed by the components'
 * own template text, never a document's, so as many entries as there are such templates.
 */
const minifiedConstants = new Map<string, string>();

/** Each distinct inner markup of a document minified once. */
class MinifiedInners {
  private readonly minified = new Map<string, string>();

  constructor(private readonly native: CompileHost["minifyConditionalInner"]) {}

  /**
   * A component's inner markup with a value minified: from its template's minified parts
   * (conditional-template.ts), unless the runtime minifies natively (for an interpreter, cheaper
   * than looking at the value).
   */
  ofTemplate(before: string, value: MarkupValue, after: string): string {
    if (this.native === undefined) {
      const minified = minifiedTemplate(before, value, after);
      if (minified !== undefined) return minified;
    }
    return this.of(`${before}${value}${after}`);
  }

  /** A component's inner markup without a value minified, once per process. */
  ofConstant(inner: string): string {
    let minified = minifiedConstants.get(inner);
    if (minified === undefined) {
      minified = this.native?.(inner) ?? minifyInner(inner);
      minifiedConstants.set(inner, minified);
    }
    return minified;
  }

  /**
   * The inner markup of a comment in scanned markup (the template's own) minified: by minifyInner
   * without the Map where the runtime does not minify natively, as a document seldom repeats one
   * (hashing it for the Map would cost about what minifying it does).
   */
  ofScanned(inner: string): string {
    return this.native === undefined ? minifyInner(inner) : this.of(inner);
  }

  of(inner: string): string {
    let minified = this.minified.get(inner);
    if (minified === undefined) {
      minified = this.native?.(inner) ?? minifyInner(inner);
      this.minified.set(inner, minified);
    }
    return minified;
  }
}

/**
 * mergeOutlookConditionnals over a BodyWriter's pieces: the same text as over their concatenation.
 * A match starts at an ENDIF and holds no other, and no ENDIF straddles two pieces (the literal
 * overlaps no shift of itself, and a text piece ends with `>`). An ENDIF piece's match, if any, is
 * the ENDIF and the start of the text piece after it: a Merged piece whole, none in a Plain one
 * (it starts with markup that is not whitespace, or holds no opening), which holds no ENDIF of its
 * own either (`text` holds no `<!`, and scanned markup only where it holds none). A scanned text
 * piece's own ENDIFs have their matches inside it, as it ends with a comment's opening (not
 * whitespace) or ends the body. Minified inner markup holds no ENDIF.
 */
function mergePieces(pieces: readonly string[], textPieces: readonly TextPiece[], output: string[]): void {
  for (let i = 0; i < pieces.length; i += 3) {
    let text = pieces[i] as string;
    const kind = textPieces[i / 3];
    if (kind === TextPiece.Scanned) {
      if (i > 0) {
        MSO_IE_START.lastIndex = 0;
        if (MSO_IE_START.test(text)) text = text.slice(MSO_IE_START.lastIndex);
        else output.push(ENDIF);
      }
      output.push(contains(text, ENDIF) ? mergeOutlookConditionnals(text) : text);
    } else if (kind === TextPiece.Plain) {
      if (i > 0) output.push(ENDIF);
      output.push(text);
    }
    if (i + 1 < pieces.length) output.push(pieces[i + 1] as string);
  }
}

/**
 * The HTML document of a body written into a BodyWriter, as pieces whose concatenation is the
 * document: what mjml2html makes of it, minifyOutlookConditionnals over the body, the skeleton
 * around it, then mergeOutlookConditionnals over the whole. The head and the body are merged apart,
 * which is the same: `</head>` stands between them, and a match holds only an ENDIF, whitespace and
 * a comment's opening.
 */
export function documentParts(body: BodyWriter, globalData: GlobalData): string[] {
  const pieces = body.finish();
  const head = skeletonHead(globalData, () => pieces.join(""));
  // a match ends with a `<!--[if mso | IE]>`, which the skeleton never writes: most heads hold none
  const output = [contains(head, MSO_IE) ? mergeOutlookConditionnals(head) : head];
  mergePieces(pieces, body.textPieces, output);
  output.push(SKELETON_END);
  return output;
}
