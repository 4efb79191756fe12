/**
 * The codes of the document's checks, with what each means (blocks list their own in their
 * `codes`; the engine adds the checks of a target's output). spec/checks.md is generated from
 * these lists, with an example of each from the corpus in fixtures/checks/ (a test checks that
 * every code has one, and that every finding's code is listed).
 */
import type { CodeInfo, Severity } from "../../blocks/block.js";

export interface CheckCode extends CodeInfo {
  /** Its severity where a link or image address holds it, when that differs (a broken address is a dead link). */
  readonly inUrl?: Severity;
}

const tag = (summary: string): CheckCode => ({ severity: "warning", inUrl: "error", summary });

export const DOCUMENT_CODES: Readonly<Record<string, CheckCode>> = {
  MERGE_TAG_UNCLOSED: tag("A merge tag opened with {{ and not closed with }}"),
  MERGE_TAG_UNOPENED: tag("A }} that closes no merge tag"),
  MERGE_TAG_EXTRA_BRACES: tag("A merge tag with a brace too many ({{{ name }}})"),
  MERGE_TAG_SINGLE_BRACES: tag("A name in single braces ({ name }), printed as it is"),
  MERGE_TAG_EMPTY: tag("A merge tag that names no value ({{ }}, {{ url. }})"),
  MERGE_TAG_BAD_NAME: tag("A merge tag whose name has spaces or characters a name cannot have"),
  MERGE_TAG_UNKNOWN_GROUP: tag("A merge tag naming a group other than text, url and attr"),
  MERGE_TAG_BAD_DEFAULT: tag("A merge tag whose default has an unclosed quote, or is empty after the bar"),
  MERGE_TAG_NOT_A_URL: { severity: "warning", summary: "A link or image address taken whole from a text or attr merge tag" },
  MERGE_TAG_NO_VALUE: { severity: "warning", summary: "With sample data: a merge tag without a value there and without a default" },
  MERGE_TAG_VALUE_NOT_A_URL: { severity: "error", summary: "With sample data: a link whose merge tag gives no http(s), mailto or tel address" },
  UNKNOWN_BLOCK_TYPE: { severity: "error", summary: "A block of a type this engine does not know: it is left out" },
  UNKNOWN_PROP: { severity: "warning", summary: "A key no setting reads (on the template, canvas, a row, column, row spacer or block): it is ignored" },
  PHONE_OVERRIDE_NOT_APPLIED: { severity: "info", summary: "A phone override the Maildeno editor offers that this engine does not apply" },
  ROW_WITHOUT_COLUMNS: { severity: "warning", summary: "A row without columns" },
  COLUMN_WIDTHS_OVER: { severity: "warning", summary: "Column widths adding up to more than the row" },
  COLUMN_WIDTHS_UNDER: { severity: "warning", summary: "Column widths leaving part of the row empty" },
  COLUMN_WITHOUT_ROOM: { severity: "warning", summary: "A column without a width in a row the others already fill" },
  DUPLICATE_ID: { severity: "warning", summary: "Two nodes with the same id" },
  UNCLOSED_TAG: { severity: "warning", summary: "An element content HTML opens and never closes" },
  UNSAFE_URL: { severity: "error", summary: "An address with a scheme other than http, https, mailto or tel: dropped" },
  UNSAFE_CONTENT: { severity: "warning", summary: "Content HTML outside the email-safe subset: removed" },
  EMPTY_ROW_SPACER: { severity: "info", summary: "A row spacer without a positive height: left out" },
  MEANINGLESS_VISIBILITY_RULE: { severity: "warning", summary: "A visibility rule without a key, or whose value cannot match" },
  VISIBILITY_OPERATOR_ALIAS: { severity: "warning", summary: "A visibility operator spelled as the editor's docs do, which the Maildeno engine does not know" },
  VISIBILITY_SPELLING: { severity: "warning", summary: "A visibility operator or match not in lower case, read differently by the Maildeno engine" },
  TEXT_TOO_SMALL: { severity: "warning", summary: "Text smaller than 12 px (or a phone override below it)" },
  LOW_CONTRAST: { severity: "warning", summary: "Text below WCAG AA contrast (4.5:1, 3:1 when large) on what is behind it" },
  LOW_CONTRAST_DARK: { severity: "warning", summary: "The same, in dark mode, in a template that sets dark colours" },
  HEADING_LEVEL_SKIPPED: { severity: "warning", summary: "A heading more than one level below the one before it" },
  IMAGE_ALT_MISSING: { severity: "warning", summary: "An image in content HTML without alt text" },
  LANGUAGE_MISSING: { severity: "info", summary: "A template that does not say its language" },
  LINK_PLACEHOLDER: { severity: "error", summary: "A link to # or, in text, to nothing" },
  INSECURE_URL: { severity: "warning", summary: "A link or image over http://" },
};
