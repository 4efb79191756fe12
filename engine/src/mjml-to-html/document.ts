/**
 * The HTML document around the rendered body: mjml-core 5.4.1's skeleton and the head parts it
 * builds (font imports, media queries, component and document styles), and the two passes over
 * Outlook conditional comments that mjml2html makes.
 */
import { occurrences } from "../base/literal-scan.js";
import { isSpace } from "../base/whitespace.js";
import type { GlobalData } from "./component.js";

function buildFontsTags(content: string, fonts: Readonly<Record<string, string>>): string {
  const toImport: string[] = [];
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

export function skeleton(content: string, globalData: GlobalData): string {
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
    ${buildFontsTags(content, globalData.fonts)}
    ${buildMediaQueriesTags(breakpoint, globalData.mediaQueries, globalData.forceOWADesktop)}
    ${buildStyleFromComponents(globalData)}
    ${buildStyleFromTags(globalData.style)}
    ${globalData.headRaw.filter((raw) => raw !== null).join("\n")}
  </head>
  ${content}
</html>
  `;
}

const CONDITION_START = "<!--[if";
const ENDIF = "<![endif]-->";

/**
 * The end of a conditional comment's opening (`<!--[if mso | IE]>`) that starts at `start`, or -1:
 * what `<!--\[if\s[^\]]+]>` matches there.
 */
function conditionStartEnd(content: string, start: number): number {
  const afterIf = start + CONDITION_START.length;
  if (!isSpace(content.charCodeAt(afterIf))) return -1;
  const bracket = content.indexOf("]", afterIf + 1);
  if (bracket <= afterIf + 1 || content.charCodeAt(bracket + 1) !== 0x3e /* > */) return -1;
  return bracket + 2;
}

/**
 * Removes the whitespace between tags inside conditional comments (mjml-core's
 * minifyOutlookConditionnals: `content.replace(/(<!--\[if\s[^\]]+]>)([\s\S]*?)(<!\[endif]-->)/gm, …)`).
 * The comments are found with `occurrences` (src/literal-scan.ts) rather than that expression: the
 * same matches, without the expression's lazy scan of the whole document, which an interpreter like
 * the release build's QuickJS runs at every character.
 */
export function minifyOutlookConditionnals(content: string): string {
  // Containers repeat the same Outlook markup around each child: each distinct one is minified once.
  const minifiedInners = new Map<string, string>();
  let output = "";
  let copied = 0;
  for (const start of occurrences(content, CONDITION_START)) {
    if (start < copied) continue;
    const innerStart = conditionStartEnd(content, start);
    if (innerStart === -1) continue;
    const end = content.indexOf(ENDIF, innerStart);
    if (end === -1) break;
    const inner = content.slice(innerStart, end);
    let minified = minifiedInners.get(inner);
    if (minified === undefined) {
      minified = inner.replace(/(^|>)(\s+)(<|$)/gm, "$1$3").replace(/\s{2,}/gm, " ");
      minifiedInners.set(inner, minified);
    }
    output += content.slice(copied, innerStart) + minified + ENDIF;
    copied = end + ENDIF.length;
  }
  return output + content.slice(copied);
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
