/**
 * spec/checks.md, generated from the list of codes the checks give (engine/src/engine/checks.ts,
 * `checkCodes`: the document's, each block's and the targets') with, for each code, an example run
 * from the corpus of mistakes (fixtures/checks/): the finding exactly as the engine gives it. `make
 * spec` writes it; test/checks.test.ts fails when it is stale, when a code has no example, or when
 * a code is missing from the groups below.
 */
import { BLOCKS } from "../src/blocks/registry.js";
import { checkCodes, NEAR_CLIP_BYTES } from "../src/engine/checks.js";
import { CLIENT_FAMILIES } from "../src/engine/client-support.js";
import { type Finding, validateTemplate } from "../src/index.js";
import { listCases } from "./fixture-cases.js";

/** The sections of the list, each with its codes in order (blocks' codes are added from the registry). */
const GROUPS: readonly { title: string; intro: string; codes: readonly string[] }[] = [
  {
    title: "Merge tags",
    intro:
      "In every prop that holds tags (spec/template.md, *Merge tags*): text, rich text, link and image addresses, list entries, `template_name`, `canvas.preheaderText`, row and column background images. A mistake is a `warning` in text, where recipients read it, and an `error` in a link or image address, which it breaks.",
    codes: [
      "MERGE_TAG_UNCLOSED",
      "MERGE_TAG_UNOPENED",
      "MERGE_TAG_EXTRA_BRACES",
      "MERGE_TAG_SINGLE_BRACES",
      "MERGE_TAG_EMPTY",
      "MERGE_TAG_BAD_NAME",
      "MERGE_TAG_UNKNOWN_GROUP",
      "MERGE_TAG_BAD_DEFAULT",
      "MERGE_TAG_NOT_A_URL",
      "MERGE_TAG_NO_VALUE",
      "MERGE_TAG_VALUE_NOT_A_URL",
    ],
  },
  {
    title: "Unknown names",
    intro:
      "Block types and keys no setting reads, on the template, the canvas, rows, columns, row spacers, block props and the objects inside them (borders, spacing, visibility rules, list entries, phone overrides), each with the nearest known name (\"did you mean\"; `bg` and `colour` are read as `background` and `color`). What the Maildeno editor writes and this engine does not read is never reported: a column's `backgroundGradient`, a row spacer's `name`, menu items' and networks' `_id`, and phone overrides set to `null` (its \"not set\").",
    codes: ["UNKNOWN_BLOCK_TYPE", "UNKNOWN_PROP", "PHONE_OVERRIDE_NOT_APPLIED"],
  },
  { title: "Blocks", intro: "What each block needs to mean something to a reader (its own checks, in its folder).", codes: [] },
  {
    title: "Structure and content HTML",
    intro: "What renders empty or broken whatever the block.",
    codes: [
      "ROW_WITHOUT_COLUMNS",
      "COLUMN_WIDTHS_OVER",
      "COLUMN_WIDTHS_UNDER",
      "COLUMN_WITHOUT_ROOM",
      "DUPLICATE_ID",
      "UNCLOSED_TAG",
      "UNSAFE_URL",
      "UNSAFE_CONTENT",
      "EMPTY_ROW_SPACER",
    ],
  },
  {
    title: "Visibility rules",
    intro: "Rules this engine reads as the Maildeno editor and engine do, which may not be what their author meant (spec/template.md, *Visibility rules*).",
    codes: ["MEANINGLESS_VISIBILITY_RULE", "VISIBILITY_OPERATOR_ALIAS", "VISIBILITY_SPELLING"],
  },
  {
    title: "Readers",
    intro:
      "Every reader, those with a screen reader or low vision included. Contrast is WCAG 2 AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold), of the text's colour on what is behind the block: its own background, its column's, its row's, the content's; on each stop of a gradient and on the colour under it, which clients without gradients show; not over a background image. Where the template sets dark colours, the dark scheme is judged too, as the targets paint it. Alt text `\"\"` marks an image decorative and is never reported.",
    codes: ["TEXT_TOO_SMALL", "LOW_CONTRAST", "LOW_CONTRAST_DARK", "HEADING_LEVEL_SKIPPED", "IMAGE_ALT_MISSING", "LANGUAGE_MISSING"],
  },
  {
    title: "Links and images",
    intro: "The addresses links and images use, as written (one starting with a merge tag is judged with sample data).",
    codes: ["LINK_PLACEHOLDER", "INSECURE_URL"],
  },
  {
    title: "Size",
    intro: `The HTML a reader's client gets, every conditional row and block shown, with the sample data's values: the html target's output; the HTML the mjml target compiles to (by mjml, not minified); for react-email, the html target's size (React Email's own render of the component was 54–96% of it over the fixtures). Gmail clips an email over 102 KB; a warning from ${NEAR_CLIP_BYTES / 1024} KB.`,
    codes: ["EMAIL_SIZE_NEAR_CLIP", "EMAIL_SIZE_CLIPPED"],
  },
  {
    title: "Mail clients",
    intro: `Only when asked for (\`clients\` in the library, \`--clients\` on the command line; it needs Node.js and the doiuse-email package, and takes seconds for a long email): what caniemail's data says named client families (${CLIENT_FAMILIES.join(", ")}) do not support in the html, for each block, row and the canvas whose look brought it in. Each node is rendered alone as written and with its content only (text, links, images, column widths): what the engine writes for every email is left out.`,
    codes: ["CLIENT_UNSUPPORTED"],
  },
];

const escapeCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (text: string) => (text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``);

/** The first finding of each code over the corpus, with its case. */
function examples(): Map<string, { finding: Finding; case: string }> {
  const found = new Map<string, { finding: Finding; case: string }>();
  for (const fixture of listCases("checks")) {
    const { findings } = validateTemplate(fixture.template, { dynamicData: fixture.sampleData, clients: fixture.clients });
    for (const finding of findings) if (!found.has(finding.code)) found.set(finding.code, { finding, case: fixture.name });
  }
  return found;
}

export function checksDoc(): string {
  const codes = checkCodes();
  const groups = GROUPS.map((group) =>
    group.title === "Blocks" ? { ...group, codes: Object.values(BLOCKS).flatMap((block) => Object.keys(block.codes)) } : group,
  );
  const placed = new Set(groups.flatMap((g) => g.codes));
  const missing = Object.keys(codes).filter((c) => !placed.has(c));
  if (missing.length > 0) throw new Error(`spec/checks.md: no group lists ${missing.join(", ")} (engine/scripts/checks-doc.ts)`);
  const seen = examples();
  const severity = (c: string) => {
    const info = codes[c]!;
    return info.inUrl ? `${info.severity} (${info.inUrl} in a link or image address)` : info.severity;
  };
  const out: string[] = [HEADER];
  for (const group of groups) {
    out.push(`## ${group.title}`, "", group.intro, "", "| code | severity | what it means |", "|---|---|---|");
    for (const c of group.codes) out.push(`| [\`${c}\`](#${c.toLowerCase()}) | ${severity(c)} | ${escapeCell(codes[c]!.summary)} |`);
    out.push("");
    for (const c of group.codes) {
      const example = seen.get(c);
      if (example === undefined) throw new Error(`spec/checks.md: no case in fixtures/checks/ gives ${c}`);
      const { finding: f } = example;
      out.push(
        `### ${c}`,
        "",
        `${codes[c]!.summary}. Example, [fixtures/checks/${example.case}](../fixtures/checks/${example.case}/case.json):`,
        "",
        `- severity: ${f.severity}${f.target ? `, target: ${f.target}` : ""}`,
        `- path: ${f.path.length === 0 ? "`[]` (the whole email)" : code(f.path.join("/"))}`,
        ...(f.value === "" ? [] : [`- value: ${code(f.value)}`]),
        `- message: ${f.message}`,
        `- hint: ${f.hint}`,
        "",
      );
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

const HEADER = `# Template checks

<!-- Generated by engine/scripts/checks-doc.ts (make spec) from the engine's list of codes, with examples from fixtures/checks/. Do not edit. -->

Checks over a template, and over sample recipient data where given, that find what would reach
every recipient broken — an unclosed merge tag, a button going nowhere, a setting spelled wrong,
text too faint to read, an email Gmail clips — before it is sent. They run in:

- the engine library: \`validateTemplate(template, {dynamicData, targets, clients, strict})\` returns
  \`valid\`, \`issues\` and \`warnings\` as before, and \`findings\` and \`passed\`;
- the executable: \`mailrender-engine validate\` (a report for people, \`--format json\`, or
  \`--format sarif\` for code scanning; spec/README.md), and \`options.checks\` on a render request,
  whose response then carries \`findings\` about the template and that target;
- the service: creating or replacing a template answers with its \`findings\`; a template is never
  refused for one (spec/errors.md for what is refused).

A finding is \`{severity, code, path, value, message, hint, target?}\`:

- \`severity\`: \`error\` — readers miss what it is for (a link going nowhere, an image not shown, text
  printed as \`{{first_name}\`); \`warning\` — it works, poorly or not for every reader; \`info\` — worth a look.
- \`code\`: stable, listed below.
- \`path\`: into the template document, as the template's issues are: the prop at fault, or the block,
  row or column; \`[]\` only for what is about the whole email (its size).
- \`value\`: the offending value as written, cut to 80 characters.
- \`message\` and \`hint\`: what is wrong and how to fix it, for people; not stable.
- \`target\`: on a finding about one target's output (its size; the mail clients' judge the html).

\`passed\` is true when the template is valid and no finding is an error (with \`strict\`, no warning
either); \`validate\` exits 1 otherwise. The checks judge the template, never a recipient's values,
except where sample data is given. Hidden blocks (visibility rules, desktop or phone only) are
judged as well: some recipient sees each.
`;
