/**
 * The React Email module: a default-exported component built from `@react-email/components`,
 * with style objects, that renders to the same visible text and links as the html target.
 */

import { attrs, jsxClass } from "../blocks/shared.js";
import { encodeUnsafeUrlChars } from "../data/escape.js";
import type { ColumnNode, Condition, RowLike, RowNode, SpacerNode } from "../document/model.js";
import { googleFontsHref } from "../markup/fonts.js";
import { type Declarations, jsxStyle, px, spacing } from "../markup/style.js";
import { guard, withExpressions } from "./component/expressions.js";
import { componentParts } from "./component/module.js";
import type { DocumentContext } from "./context.js";
import { spacerDarkBox } from "./dark.js";
import { horizontal, layoutColumns } from "./layout.js";
import { columnBoxDeclarations, columnInnerWidth, rowBoxDeclarations, rowInnerWidth, spacerGradient } from "./nested-html.js";
import { APPLE_NO_REFORMAT, baseCss, classList, colorSchemes, metaTags, mobileCss, STACK_ON_MOBILE } from "./responsive.js";

const COMPONENTS = ["Body", "Button", "Column", "Container", "Head", "Heading", "Hr", "Html", "Img", "Link", "Preview", "Row", "Section", "Text"];

/**
 * A node as the module writes it: as it is, or, in a component (which renders every node and decides
 * per recipient), between the markers of its rule set.
 */
function guarded(node: { readonly condition: Condition | undefined }, jsx: string, doc: DocumentContext): string {
  return doc.deferVisibility && node.condition ? `${guard.open(node.condition.slot)}\n${jsx}\n${guard.close}` : jsx;
}

function spacerJsx(spacer: SpacerNode, doc: DocumentContext): string {
  const decls: Declarations = [
    ["height", px(spacer.height)],
    ["line-height", px(spacer.height)],
    ["font-size", "1px"],
  ];
  if (spacer.backgroundColor !== "transparent") decls.push(["background-color", spacer.backgroundColor]);
  decls.push(...spacerGradient(spacer));
  return `<Section${jsxClass(doc.dark.box("row", "jsx", spacerDarkBox(spacer)).className)} style={${jsxStyle(decls)}}>&#8202;</Section>`;
}

function columnJsx(node: ColumnNode, percent: number, rowInner: number, stack: boolean, doc: DocumentContext): string {
  const width = columnInnerWidth(node, rowInner, percent);
  const style: Declarations = [
    ["width", `${percent}%`],
    ["vertical-align", node.style.verticalAlign],
    ["padding", spacing(node.style.padding)],
    ...columnBoxDeclarations(node),
  ];
  const dark = doc.dark.column("jsx", node);
  const children = doc.dark.within(dark.themed, () =>
    doc
      .visibleChildren(node.children)
      .map((child) => guarded(child, childJsx(child, width, doc), doc))
      .join("\n"),
  );
  return `<Column${jsxClass(classList(stack ? STACK_ON_MOBILE : "", dark.className))} style={${jsxStyle(style)}}>\n${children}\n</Column>`;
}

/**
 * A row. In a component, a row whose columns have rules is written once per set of them shown (the
 * shown columns share its width), and the recipient's context picks one.
 */
function rowJsx(row: RowNode, outerWidth: number, doc: DocumentContext): string {
  const conditional = doc.deferVisibility ? row.columns.filter((column) => column.condition !== undefined) : [];
  if (conditional.length === 0) return rowWithColumns(row, doc.visibleChildren(row.columns), outerWidth, doc);
  const variants: string[] = [];
  for (let mask = 0; mask < 2 ** conditional.length; mask++) {
    const shown = row.columns.filter((column) => column.condition === undefined || (mask & (2 ** conditional.indexOf(column))) !== 0);
    variants.push(rowWithColumns(row, shown, outerWidth, doc));
  }
  return `${guard.choose(conditional.map((column) => column.condition?.slot ?? 0))}\n${variants.join(`\n${guard.next}\n`)}\n${guard.close}`;
}

function rowWithColumns(row: RowNode, columns: readonly ColumnNode[], outerWidth: number, doc: DocumentContext): string {
  const s = row.style;
  const inner = rowInnerWidth(row, outerWidth);
  const layout = layoutColumns(
    columns.map((c) => c.width),
    s.gap,
    inner,
  );
  const dark = doc.dark.row("jsx", row);
  const cells: string[] = [];
  doc.dark.within(dark.themed, () =>
    columns.forEach((node, index) => {
      if (index > 0 && layout.gap > 0)
        cells.push(`<Column${s.mobileStack ? ` className="${STACK_ON_MOBILE}"` : ""} style={${jsxStyle([["width", `${layout.gap}%`]])}} />`);
      cells.push(columnJsx(node, layout.widths[index] ?? 0, inner, s.mobileStack, doc));
    }),
  );
  const box: Declarations = [...rowBoxDeclarations(row), ["padding", spacing(s.padding)]];
  if (s.minHeight > 0) box.push(["height", px(s.minHeight)]);
  // A component's types want a child in every <Row>, even one whose columns are all hidden.
  if (cells.length === 0 && doc.deferVisibility) cells.push("{null}");
  // A row's cells run in its table's direction: `rtl` puts the first column on the right (stacked, in reading order).
  const dir = doc.template.canvas.direction === "rtl" ? "rtl" : undefined;
  return `<Section${jsxClass(dark.className)} style={${jsxStyle(box)}}>\n<Row${attrs({ dir })}>\n${cells.join("\n")}\n</Row>\n</Section>`;
}

function childJsx(child: ColumnNode["children"][number], width: number, doc: DocumentContext): string {
  if (child.kind === "component") return doc.block(child, width, "jsx");
  if (child.kind === "row-spacer") return spacerJsx(child, doc);
  return rowJsx(child, width, doc);
}

function rowLike(node: RowLike, width: number, doc: DocumentContext): string {
  return node.kind === "row-spacer" ? spacerJsx(node, doc) : rowJsx(node, width, doc);
}

/** `Spring Sale!` → `SpringSaleEmail`: a valid identifier whatever the template is called. */
function componentName(templateName: string): string {
  const words = templateName.replace(/\{\{[^}]*\}\}/g, " ").match(/[A-Za-z0-9]+/g) ?? [];
  const name = words
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")
    .replace(/^[0-9]+/, "");
  return `${name || "Template"}Email`;
}

export function renderReactEmailDocument(doc: DocumentContext): string {
  const { template, out } = doc;
  const canvas = template.canvas;
  const contentWidth = canvas.width - horizontal(canvas.padding);
  const pageClass = doc.dark.page("jsx");
  const contentClass = doc.dark.content("jsx");
  const rows = doc
    .visibleChildren(template.rows)
    .map((row) => guarded(row, rowLike(row, contentWidth, doc), doc))
    .join("\n");
  const otherDirection = canvas.direction === "ltr" ? undefined : canvas.direction;
  const fonts = googleFontsHref(doc.fonts);
  const schemes = colorSchemes(doc.dark.used);
  const css = [baseCss(schemes), ...doc.headCss, mobileCss(canvas.mobileBreakpoint, doc.mobileCss)].join("\n");
  // <Body> gives <body> only the `background` shorthand and the colour (its inner cell gets the whole
  // style), so a page image goes in the shorthand to cover the page, as in the html target.
  const pageBackground = canvas.bodyBackgroundImage
    ? `${canvas.bodyBackgroundColor} url('${encodeUnsafeUrlChars(canvas.bodyBackgroundImage)}') ${canvas.bodyBackgroundPosition} / ${canvas.bodyBackgroundSize} ${canvas.bodyBackgroundRepeat}`
    : undefined;
  const body: Declarations = [
    pageBackground ? ["background", pageBackground] : ["background-color", canvas.bodyBackgroundColor],
    ["margin", "0"],
    ["padding", "0"],
    ["font-family", "Arial, Helvetica, sans-serif"],
  ];
  const container: Declarations = [
    ["width", "100%"],
    ["max-width", px(canvas.width)],
    ["margin", "0 auto"],
    ["background-color", canvas.backgroundColor],
    ["padding", spacing(canvas.padding)],
  ];

  const name = componentName(template.name);
  const markup = [
    `<Html lang="${out.trusted(canvas.language, "attr")}" dir="${canvas.direction}">`,
    `<Head>`,
    `<title>${out.text(template.name)}</title>`,
    // <Head> writes the charset and x-apple-disable-message-reformatting meta tags itself.
    `<meta name="viewport" content="width=device-width, initial-scale=1" />`,
    ...metaTags(schemes)
      .filter((meta) => meta["name"] !== APPLE_NO_REFORMAT)
      .map((meta) => `<meta name="${meta["name"]}" content="${meta["content"]}" />`),
    ...(fonts ? [`<link href="${out.trusted(fonts, "attr")}" rel="stylesheet" />`] : []),
    `<style>{${JSON.stringify(css)}}</style>`,
    // A <style> of its own, as in the html target (targets/dark.ts).
    ...(doc.dark.used ? [`<style>{${JSON.stringify(doc.dark.css())}}</style>`] : []),
    `</Head>`,
    `<Preview>${out.text(canvas.preheaderText)}</Preview>`,
    // Left to right is every client's own direction; another is said on the body and on the content's
    // table too, as webmail clients drop <html> and <body> and keep what is inside.
    `<Body${jsxClass(pageClass)}${attrs({ dir: otherDirection })} style={${jsxStyle(body)}}>`,
    `<Container${jsxClass(contentClass)}${attrs({ dir: otherDirection })} style={${jsxStyle(container)}}>`,
    rows,
    `</Container>`,
    `</Body>`,
    `</Html>`,
  ];
  // A component's parts are known once every tag it writes is (after the markup).
  const component = doc.deferVisibility ? componentParts(template, name, out.slots) : undefined;
  const jsx = component ? withExpressions(markup.join("\n"), out.slots) : markup.join("\n");
  // A component is imported into other code, whose lint and compiler options may refuse unused imports.
  const imports = component ? COMPONENTS.filter((used) => new RegExp(`<${used}[\\s/>]`).test(jsx)) : COMPONENTS;
  return [
    `import { ${imports.join(", ")} } from "@react-email/components";`,
    ``,
    ...(component ? [component.preamble] : []),
    `export default function ${name}(${component?.parameters ?? ""}) {`,
    ...(component?.head ?? []),
    `return (`,
    jsx,
    `);`,
    `}`,
    ``,
  ].join("\n");
}
