/** mj-column (mjml-column 5.4.1), with its gutter support. */
import {
  type AttributeStyle,
  BORDER_STYLE,
  type BodyComponent,
  type BodyContext,
  childContext,
  declaration,
  htmlAttribute,
  PRESENTATION_TABLE,
  type SiblingProps,
  WritingComponent,
} from "../component.js";
import { widthParser } from "../helpers.js";
import type { HtmlOutput } from "../html-output.js";

type Unit = string;

/** hasGutter()'s attributes, walked with an index loop: in QuickJS a callback is a call per attribute. */
const GUTTER_ATTRIBUTES = ["padding", "padding-bottom", "padding-left", "padding-right", "padding-top"];
/** mjml's table style: each CSS property with the attribute that holds its value, in mjml's order. */
const TABLE_STYLE: AttributeStyle = [["background-color", "background-color"], ...BORDER_STYLE, ["vertical-align", "vertical-align"]];
/** The table's style with a gutter: the inner border and background. */
const INNER_TABLE_STYLE: AttributeStyle = [
  ["background-color", "inner-background-color"],
  ["border", "inner-border"],
  ["border-bottom", "inner-border-bottom"],
  ["border-left", "inner-border-left"],
  ["border-radius", "inner-border-radius"],
  ["border-right", "inner-border-right"],
  ["border-top", "inner-border-top"],
];
/** The style of a child's cell, in mjml's order: its background, font-size 0, its paddings, word-break. */
const CELL_BACKGROUND: AttributeStyle = [["background", "container-background-color"]];
const CELL_PADDING: AttributeStyle = [
  ["padding", "padding"],
  ["padding-top", "padding-top"],
  ["padding-right", "padding-right"],
  ["padding-bottom", "padding-bottom"],
  ["padding-left", "padding-left"],
];
/** What styles() writes of a child's cell style: written as declarations, no object built and enumerated. */
function cellStyle(child: BodyComponent): string {
  return `${child.attributeDeclarations(CELL_BACKGROUND)}font-size:0px;${child.attributeDeclarations(CELL_PADDING)}word-break:break-word;`;
}
interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export class MjColumn extends WritingComponent {
  static override readonly componentName = "mj-column";
  static override readonly allowedAttributes = {
    "background-color": "color",
    border: "string",
    "border-bottom": "string",
    "border-left": "string",
    "border-radius": "string",
    "border-right": "string",
    "border-top": "string",
    direction: "enum(ltr,rtl)",
    "inner-background-color": "color",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    "inner-border": "string",
    "inner-border-bottom": "string",
    "inner-border-left": "string",
    "inner-border-radius": "string",
    "inner-border-right": "string",
    "inner-border-top": "string",
    padding: "unit(px,%){1,4}",
    "vertical-align": "enum(top,bottom,middle)",
    width: "unit(px,%)",
  };
  static override readonly defaultAttributes = { direction: "ltr", "vertical-align": "top" };

  static normalizeUnitValue(value: number | string): number {
    return Number(parseFloat(String(value)).toFixed(6));
  }

  static normalizePxValue(value: number | string): number {
    return Math.round(parseFloat(String(value)));
  }

  static formatPadding(top: number, right: number, bottom: number, left: number, unit: Unit): string {
    if (unit === "px") {
      const px = MjColumn.normalizePxValue;
      return `${px(top)}px ${px(right)}px ${px(bottom)}px ${px(left)}px`;
    }
    const n = MjColumn.normalizeUnitValue;
    return `${n(top)}${unit} ${n(right)}${unit} ${n(bottom)}${unit} ${n(left)}${unit}`;
  }

  declare private keptSiblingProps?: SiblingProps;

  /** Made once: a column reads it for each width and padding it works out (props do not change). */
  private get siblingProps(): SiblingProps {
    if (this.keptSiblingProps === undefined) {
      const { first = false, last = false, index = 0, sibling = 0, nonRawSiblings = 0 } = this.props;
      this.keptSiblingProps = { first, last, index, sibling, nonRawSiblings };
    }
    return this.keptSiblingProps;
  }

  private get containerWidth(): string {
    return this.context.containerWidth ?? "";
  }

  override getChildContext(): BodyContext {
    const parentWidth = this.containerWidth;
    const { nonRawSiblings } = this.siblingProps;
    const { borders, paddings } = this.getBoxWidths();
    const innerBorders = this.getShorthandBorderValue("left", "inner-border") + this.getShorthandBorderValue("right", "inner-border");
    const allPaddings = paddings + borders + innerBorders;
    let containerWidth = this.getAttribute("width") || `${parseFloat(parentWidth) / nonRawSiblings}px`;
    const { unit, parsedWidth } = widthParser(containerWidth, { parseFloatToInt: false });
    if (unit === "%") containerWidth = `${(parseFloat(parentWidth) * parsedWidth) / 100 - allPaddings}px`;
    else containerWidth = `${parsedWidth - allPaddings}px`;
    return childContext(this.context, { containerWidth });
  }

  /**
   * What styles() writes of mjml's div, table, tdOutlook and gutter styles, written as declarations:
   * each is written once, and QuickJS builds and enumerates an object a key at a time.
   */
  override styleDeclarations(name: string): string {
    if (name === "div") {
      let div = `font-size:0px;text-align:left;${declaration("direction", this.getAttribute("direction"))}display:inline-block;`;
      div += `${declaration("vertical-align", this.getAttribute("vertical-align"))}width:${this.getMobileWidth()};`;
      // the gutter padding only with a column gutter
      return this.hasColumnGutter() ? `${div}padding:${this.context.isInGroup ? this.getDesktopPadding() : this.getMobilePadding()};` : div;
    }
    if (name === "tdOutlook") {
      const td = `${declaration("vertical-align", this.getAttribute("vertical-align"))}width:${this.getWidthAsPixel()};`;
      return this.hasColumnGutter() ? `${td}padding:${this.getOutlookGutterPadding()};` : td;
    }
    // mjml's table style gets `border-collapse` with a border radius; its inner table (with a gutter) with an inner one
    const tableStyle = this.attributeDeclarations(TABLE_STYLE) + (this.hasBorderRadius() ? "border-collapse:separate;" : "");
    if (name === "gutter") return tableStyle + this.attributeDeclarations(CELL_PADDING);
    if (name !== "table") return "";
    if (this.hasGutter()) return this.attributeDeclarations(INNER_TABLE_STYLE) + (this.hasInnerBorderRadius() ? "border-collapse:separate;" : "");
    // without a gutter the table is mjml's table style, `border-collapse` set once
    return this.hasInnerBorderRadius() && !this.hasBorderRadius() ? `${tableStyle}border-collapse:separate;` : tableStyle;
  }

  getMobileWidth(): string {
    const { isInGroup } = this.context;
    const containerWidth = this.containerWidth;
    const { nonRawSiblings } = this.siblingProps;
    const width = this.getAttribute("width");
    if (this.getAttribute("mobileWidth") !== "mobileWidth") return "100%";
    // columns in a group do not stack on mobile: the gutter-reduced desktop width
    if (isInGroup && this.hasColumnGutter()) {
      const { parsedWidth, unit } = this.getDesktopWidth();
      if (unit === "%") return `${parsedWidth}%`;
      return `${MjColumn.normalizeUnitValue((parsedWidth / parseInt(containerWidth, 10)) * 100)}%`;
    }
    if (width === undefined) return `${parseInt(String(100 / nonRawSiblings), 10)}%`;
    const { unit, parsedWidth } = widthParser(width, { parseFloatToInt: false });
    if (unit === "%") return width;
    return `${MjColumn.normalizeUnitValue((parsedWidth / parseInt(containerWidth, 10)) * 100)}%`;
  }

  getWidthAsPixel(): string {
    const { unit, parsedWidth } = widthParser(this.getParsedWidthString(), { parseFloatToInt: false });
    if (unit === "%") return `${MjColumn.normalizePxValue((parseFloat(this.containerWidth) * parsedWidth) / 100)}px`;
    return `${MjColumn.normalizePxValue(parsedWidth)}px`;
  }

  getParsedWidth(): { unit: Unit; parsedWidth: number } {
    const { nonRawSiblings } = this.siblingProps;
    const width = this.getAttribute("width") || `${100 / nonRawSiblings}%`;
    return widthParser(width, { parseFloatToInt: false });
  }

  getParsedWidthString(): string {
    const { unit, parsedWidth } = this.getParsedWidth();
    return `${parsedWidth}${unit}`;
  }

  getColumnClass(): string {
    const { addMediaQuery, isInGroup } = this.context;
    const { parsedWidth, unit } = this.hasColumnGutter() ? this.getDesktopWidth() : this.getParsedWidth();
    const normalizedParsedWidth = unit === "px" ? MjColumn.normalizePxValue(parsedWidth) : parsedWidth;
    const formattedClassNb = normalizedParsedWidth.toString().replace(".", "-");
    const className = unit === "%" ? `mj-column-per-${formattedClassNb}` : `mj-column-px-${formattedClassNb}`;
    addMediaQuery(className, { parsedWidth: normalizedParsedWidth, unit });
    // columns in a group carry their gutter padding inline already
    if (this.hasColumnGutter() && !isInGroup) addMediaQuery(this.getDesktopGutterClassName(), { padding: this.getDesktopPadding() });
    return className;
  }

  getDesktopGutterClassName(): string {
    const gutterUnit = this.getDesktopUnit();
    const gutter = this.getNormalizedGutterValue(gutterUnit);
    const gutterUnitToken = gutterUnit === "%" ? "per" : gutterUnit;
    const directionToken = this.context.direction === "rtl" ? "-rtl" : "";
    const normalizedGutter = gutterUnit === "px" ? MjColumn.normalizePxValue(gutter) : gutter;
    const gutterToken = MjColumn.normalizeUnitValue(normalizedGutter).toString().replace(".", "-");
    const { sibling, index } = this.siblingProps;
    return `mj-column-gutter-${sibling}-${index + 1}-${gutterUnitToken}-${gutterToken}${directionToken}`;
  }

  getDesktopUnit(): Unit {
    return this.getParsedWidth().unit;
  }

  getDesktopWidth(): { parsedWidth: number; unit: Unit } {
    const { sibling, index } = this.siblingProps;
    const { parsedWidth, unit } = this.getParsedWidth();
    if (!this.hasColumnGutter()) return { parsedWidth: unit === "px" ? MjColumn.normalizePxValue(parsedWidth) : parsedWidth, unit };
    const gutter = this.getNormalizedGutterValue(unit);
    const reduction = (gutter * (sibling - 1)) / sibling;
    const reducedWidth = Math.max(0, MjColumn.normalizeUnitValue(parsedWidth - reduction));
    if (unit === "px") {
      const floorWidth = Math.floor(reducedWidth);
      const extraPixels = Math.max(0, Math.min(sibling, Math.round(sibling * (reducedWidth - floorWidth))));
      return { parsedWidth: floorWidth + (index < extraPixels ? 1 : 0), unit };
    }
    return { parsedWidth: reducedWidth, unit };
  }

  getNormalizedGutterValue(targetUnit: Unit): number {
    const gutter = this.context.gutter;
    if (!gutter) return 0;
    const { unit, parsedWidth } = widthParser(String(gutter), { parseFloatToInt: false });
    if (unit === targetUnit) return parsedWidth;
    if (targetUnit === "%" && unit === "px") return (parsedWidth / parseFloat(this.containerWidth)) * 100;
    if (targetUnit === "px" && unit === "%") return (parseFloat(this.containerWidth) * parsedWidth) / 100;
    return parsedWidth;
  }

  hasColumnGutter(): boolean {
    const { gutter } = this.context;
    return gutter != null && gutter !== "";
  }

  getDesktopPaddingValues(unit: Unit): Box {
    const { first, last, sibling } = this.siblingProps;
    const gutter = this.getNormalizedGutterValue(unit);
    const normalizedGutter = unit === "px" ? MjColumn.normalizePxValue(gutter) : gutter;
    const isPx = unit === "px";
    const halfLeading = isPx ? Math.ceil(normalizedGutter / 2) : normalizedGutter / 2;
    const halfTrailing = isPx ? Math.floor(normalizedGutter / 2) : normalizedGutter / 2;
    if (sibling === 1) return { top: 0, right: 0, bottom: 0, left: 0 };
    // right to left: the first and last visual positions swap
    if (this.context.direction === "rtl") return { top: 0, right: first ? 0 : halfTrailing, bottom: 0, left: last ? 0 : halfLeading };
    return { top: 0, right: last ? 0 : halfLeading, bottom: 0, left: first ? 0 : halfTrailing };
  }

  getMobilePaddingValues(): Box {
    const { first, last } = this.siblingProps;
    const half = this.getNormalizedGutterValue("%") / 2;
    // stacked on mobile, the gutter becomes vertical space between columns, not at the outer edges
    return { top: first ? 0 : half, right: 0, bottom: last ? 0 : half, left: 0 };
  }

  getDesktopPadding(): string {
    const unit = this.getDesktopUnit();
    const { top, right, bottom, left } = this.getDesktopPaddingValues(unit);
    return MjColumn.formatPadding(top, right, bottom, left, unit);
  }

  getMobilePadding(): string {
    const { top, right, bottom, left } = this.getMobilePaddingValues();
    return MjColumn.formatPadding(top, right, bottom, left, "%");
  }

  getOutlookGutterPadding(): string {
    const { top, right, bottom, left } = this.getDesktopPaddingValues("px");
    return MjColumn.formatPadding(top, right, bottom, left, "px");
  }

  hasBorderRadius(): boolean {
    const borderRadius = this.getAttribute("border-radius");
    return borderRadius !== "" && typeof borderRadius !== "undefined";
  }

  hasInnerBorderRadius(): boolean {
    const innerBorderRadius = this.getAttribute("inner-border-radius");
    return innerBorderRadius !== "" && typeof innerBorderRadius !== "undefined";
  }

  hasGutter(): boolean {
    // the Map read without a `getAttribute` call for each (asked twice of every column)
    for (let i = 0; i < GUTTER_ATTRIBUTES.length; i++) if (this.attributes.get(GUTTER_ATTRIBUTES[i] as string) != null) return true;
    return false;
  }

  writeGutter(output: HtmlOutput): void {
    const hasBorderRadius = this.hasBorderRadius();
    output.text(`
      <table
        ${this.htmlAttributes(
          hasBorderRadius
            ? { border: "0", cellpadding: "0", cellspacing: "0", role: "presentation", width: "100%", style: { "border-collapse": "separate" } }
            : { border: "0", cellpadding: "0", cellspacing: "0", role: "presentation", width: "100%" },
        )}
      >
        <tbody>
          <tr>
            <td ${this.styleAttribute("gutter")}>
              `);
    this.writeColumn(output);
    output.text(`
            </td>
          </tr>
        </tbody>
      </table>
    `);
  }

  writeColumn(output: HtmlOutput): void {
    output.text(`
      <table
        ${PRESENTATION_TABLE}${this.styleAttribute("table")} width="100%"
      >
        <tbody>
          `);
    this.writeChildren(output, (component) => {
      // the cell holds the child's attributes: scanned where they may hold comment syntax
      const cell = `
              <tr>
                <td
                  ${htmlAttribute("align", component.getAttribute("align"))}${htmlAttribute("class", component.getAttribute("css-class"))} style="${cellStyle(component)}"
                >
                  `;
      if (component.commentSyntax) output.scan(cell);
      else output.text(cell);
      component.write(output);
      output.text(`
                </td>
              </tr>
            `);
    });
    output.text(`
        </tbody>
      </table>
    `);
  }

  override write(output: HtmlOutput): void {
    let classesName = this.getColumnClass();
    if (this.hasColumnGutter()) classesName += ` ${this.getDesktopGutterClassName()}`;
    classesName += " mj-outlook-group-fix";
    const cssClass = this.getAttribute("css-class");
    if (cssClass) classesName += ` ${cssClass}`;
    output.text(`
      <div
         class="${classesName}"${this.styleAttribute("div")}
      >
        `);
    if (this.hasGutter()) this.writeGutter(output);
    else this.writeColumn(output);
    output.text(`
      </div>
    `);
  }
}
