/**
 * One input per field kind of the editor description: text (with the merge-tag picker), URLs and
 * image URLs (checked as the engine checks them), colours (picker and text), numbers with their unit
 * and range, selects, switches, spacing, borders, gradients, fonts, CSS values, lists of entries, and
 * visibility rules. Each writes the value the template format takes; `undefined` removes the key (the
 * default applies). Every input carries `data-prop` with the prop's name (test hook).
 */
import { html } from "htm/preact";
import { useRef } from "preact/hooks";
import type { Field } from "./description.js";
import { MergeTagPicker, tagSource } from "./merge-tags.js";
import { isObject } from "./model.js";
import { RichText } from "./rich-text.js";
import { VisibilityBuilder } from "./visibility.js";

export interface FieldProps {
  field: Field;
  /** The value in the template (undefined: not set). */
  value: unknown;
  /** What applies when it is not set: the default, or on the phone tab the desktop value. */
  fallback: unknown;
  /** `data-prop` and the form's ids: the prop's name, `mobile.` or `dark.` in front on those tabs. */
  name: string;
  tags: readonly string[];
  contextKeys: readonly string[];
  readOnly: boolean;
  onChange: (value: unknown) => void;
}

const inputValue = (e: Event): string => (e.target as HTMLInputElement).value;

function idFor(name: string): string {
  return `field-${name.replace(/[^\w-]/g, "-")}`;
}

/**
 * Inserts `{{ tag }}` at the caret of a text input (or at its end), and puts the caret back after it
 * once the form has re-rendered, so that typing goes on where it left off.
 */
function insertAtCaret(input: HTMLInputElement | HTMLTextAreaElement | null, value: string, tag: string): string {
  const source = tagSource(tag);
  if (input === null) return value + source;
  const start = input.selectionStart ?? value.length;
  const end = input.selectionEnd ?? start;
  const caret = start + source.length;
  setTimeout(() => {
    input.focus();
    input.setSelectionRange(caret, caret);
  });
  return value.slice(0, start) + source + value.slice(end);
}

/** Why a URL would not survive the engine's check (spec/template.md: http(s), mailto, tel; merge tags allowed), or "". */
export function urlProblem(value: string, image: boolean): string {
  const literal = value.replace(/\{\{[^}]*\}\}/g, "x").trim();
  if (literal === "" || /^(https?:\/\/|mailto:|tel:|#|\/)/i.test(literal) || /^x/.test(literal)) return "";
  if (image && /^(data:image\/(png|gif|jpe?g|webp);base64,|cid:)/i.test(literal)) return "";
  if (/^[a-z][a-z0-9+.-]*:/i.test(literal)) return `${literal.split(":")[0]}: links are not allowed in email (http, https, mailto and tel are)`;
  return "Start it with https:// (or mailto:, tel:)";
}

function TextField({ field, value, fallback, name, tags, readOnly, onChange }: FieldProps) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  const placeholder = fallback === undefined || fallback === "" ? "" : String(fallback);
  const set = (next: string) => onChange(next === "" && value === undefined ? undefined : next);
  const multiline = field.kind === "text" && field.multiline;
  const url = field.kind === "url" || field.kind === "imageUrl";
  const problem = url ? urlProblem(text, field.kind === "imageUrl") : "";
  const mergeTags = field.kind !== "text" || field.mergeTags;
  const input = multiline
    ? html`<textarea ref=${ref} id=${idFor(name)} data-prop=${name} rows="3" value=${text} placeholder=${placeholder} readOnly=${readOnly} onInput=${(e: Event) => set(inputValue(e))}></textarea>`
    : html`<input ref=${ref} id=${idFor(name)} data-prop=${name} type="text" inputmode=${url ? "url" : undefined} value=${text} placeholder=${placeholder}
        readOnly=${readOnly} spellcheck=${!url} autocomplete="off" aria-invalid=${problem !== ""} onInput=${(e: Event) => set(inputValue(e))} />`;
  return html`
    <div class="with-picker">
      ${input}
      ${mergeTags && !readOnly && html`<${MergeTagPicker} tags=${tags} prop=${name} onPick=${(tag: string) => onChange(insertAtCaret(ref.current, text, tag))} />`}
    </div>
    ${problem && html`<p class="field-problem bad" role="alert">${problem}</p>`}
    ${field.kind === "imageUrl" && /^https?:\/\/\S+$/.test(text) && html`<img class="thumb" src=${text} alt="" loading="lazy" />`}
  `;
}

/** `#rgb` as `#rrggbb`, for the colour picker (which takes nothing else); names and rgba() are shown as text only. */
function pickerColor(value: string): string | undefined {
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : undefined;
}

function ColorField({ value, fallback, name, readOnly, onChange }: FieldProps) {
  const text = typeof value === "string" ? value : "";
  const shown = text || (typeof fallback === "string" ? fallback : "");
  return html`
    <div class="color-field">
      <span class="swatch" style=${`background:${shown || "transparent"}`}>
        <input type="color" aria-label="Pick a colour" value=${pickerColor(shown) ?? "#000000"} disabled=${readOnly}
          onInput=${(e: Event) => onChange(inputValue(e))} />
      </span>
      <input id=${idFor(name)} data-prop=${name} type="text" value=${text} placeholder=${typeof fallback === "string" ? fallback : ""} readOnly=${readOnly}
        spellcheck=${false} autocomplete="off" size="12" onInput=${(e: Event) => onChange(inputValue(e) === "" ? undefined : inputValue(e))} />
    </div>
  `;
}

function NumberField({ field, value, fallback, name, readOnly, onChange }: FieldProps) {
  if (field.kind !== "number") return null;
  const auto = value === "auto" || (value === undefined && fallback === "auto");
  const current = typeof value === "number" ? value : typeof value === "string" && value !== "auto" && value.trim() !== "" ? Number(value) : undefined;
  const shown = current ?? (typeof fallback === "number" ? fallback : undefined);
  const set = (text: string) => {
    if (text.trim() === "") return onChange(undefined);
    const n = Number(text);
    if (Number.isFinite(n)) onChange(n);
  };
  return html`
    <div class="number-field">
      <input id=${idFor(name)} data-prop=${name} type="number" min=${field.min} max=${field.max} step=${field.step}
        value=${current ?? ""} placeholder=${shown === undefined ? (auto ? "auto" : "") : String(shown)} readOnly=${readOnly} disabled=${auto && value === "auto"}
        onInput=${(e: Event) => set(inputValue(e))} />
      ${field.unit && html`<span class="unit">${field.unit}</span>`}
      <input type="range" aria-label=${`${field.label} (slider)`} min=${field.min} max=${field.max} step=${field.step} value=${shown ?? field.min}
        disabled=${readOnly || (auto && value === "auto")} onInput=${(e: Event) => set(inputValue(e))} />
      ${
        field.auto &&
        html`<label class="inline"><input type="checkbox" checked=${value === "auto"} disabled=${readOnly}
          onChange=${(e: Event) => onChange((e.target as HTMLInputElement).checked ? "auto" : undefined)} /> auto</label>`
      }
    </div>
  `;
}

function EnumField({ field, value, fallback, name, readOnly, onChange }: FieldProps) {
  if (field.kind !== "enum") return null;
  const current = value === undefined || value === null ? "" : String(value);
  const known = field.options.some((o) => o.value === current);
  const fallbackLabel = field.options.find((o) => o.value === String(fallback))?.label ?? (fallback === undefined ? "" : String(fallback));
  return html`
    <select id=${idFor(name)} data-prop=${name} value=${current} disabled=${readOnly} onChange=${(e: Event) => onChange(inputValue(e) === "" ? undefined : inputValue(e))}>
      <option value="">${fallbackLabel ? `Default (${fallbackLabel})` : "Default"}</option>
      ${field.options.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
      ${!known && current !== "" && html`<option value=${current}>${current}</option>`}
    </select>
  `;
}

function BooleanField({ value, fallback, name, readOnly, onChange, field }: FieldProps) {
  const checked = typeof value === "boolean" ? value : value === "true" ? true : fallback === true;
  return html`<label class="inline"><input id=${idFor(name)} data-prop=${name} type="checkbox" checked=${checked} disabled=${readOnly}
    onChange=${(e: Event) => onChange((e.target as HTMLInputElement).checked)} /> ${field.label}</label>`;
}

const SIDES = ["top", "right", "bottom", "left"] as const;

function sidesOf(value: unknown): Record<(typeof SIDES)[number], number> | undefined {
  if (typeof value === "number") return { top: value, right: value, bottom: value, left: value };
  if (!isObject(value)) return undefined;
  const n = (side: string) => (typeof value[side] === "number" ? (value[side] as number) : 0);
  return { top: n("top"), right: n("right"), bottom: n("bottom"), left: n("left") };
}

function SpacingField({ value, fallback, name, readOnly, onChange }: FieldProps) {
  const current = sidesOf(value);
  const base = current ?? sidesOf(fallback) ?? { top: 0, right: 0, bottom: 0, left: 0 };
  const set = (side: (typeof SIDES)[number], text: string) => {
    const n = text.trim() === "" ? 0 : Number(text);
    if (!Number.isFinite(n)) return;
    onChange({ ...(isObject(value) ? value : {}), ...base, [side]: n });
  };
  return html`
    <div class="spacing-field" data-prop=${name}>
      ${SIDES.map(
        (side) => html`<label>${side}<input type="number" min="0" max="400" data-prop=${`${name}.${side}`} value=${current ? current[side] : ""}
          placeholder=${String(base[side])} readOnly=${readOnly} onInput=${(e: Event) => set(side, inputValue(e))} /></label>`,
      )}
      <span class="unit">px</span>
    </div>
  `;
}

const BORDER_STYLES = ["solid", "dashed", "dotted", "double", "none"];

function BorderField({ value, fallback, name, readOnly, onChange }: FieldProps) {
  const current = isObject(value) ? value : {};
  const base = isObject(fallback) ? fallback : {};
  const set = (key: string, next: unknown) => onChange({ ...base, ...current, [key]: next });
  const num = (key: string) => (typeof current[key] === "number" ? String(current[key]) : "");
  return html`
    <div class="border-field" data-prop=${name}>
      <label>width<input type="number" min="0" max="40" data-prop=${`${name}.width`} value=${num("width")} placeholder=${String(base["width"] ?? 0)} readOnly=${readOnly}
        onInput=${(e: Event) => set("width", Number(inputValue(e) || 0))} /></label>
      <label>style<select data-prop=${`${name}.style`} value=${String(current["style"] ?? base["style"] ?? "solid")} disabled=${readOnly}
        onChange=${(e: Event) => set("style", inputValue(e))}>${BORDER_STYLES.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
      <label>colour<input type="text" size="9" data-prop=${`${name}.color`} value=${String(current["color"] ?? "")} placeholder=${String(base["color"] ?? "")}
        readOnly=${readOnly} onInput=${(e: Event) => set("color", inputValue(e))} /></label>
      <label>radius<input type="number" min="0" max="200" data-prop=${`${name}.radius`} value=${num("radius")} placeholder=${String(base["radius"] ?? 0)}
        readOnly=${readOnly} onInput=${(e: Event) => set("radius", Number(inputValue(e) || 0))} /></label>
    </div>
  `;
}

function GradientField({ value, name, readOnly, onChange }: FieldProps) {
  const current = isObject(value) ? value : { useGradient: false };
  const gradient = isObject(current["gradient"]) ? current["gradient"] : {};
  const colors = Array.isArray(gradient["colors"]) ? (gradient["colors"] as Record<string, unknown>[]) : [];
  const setGradient = (key: string, next: unknown) => onChange({ ...current, gradient: { ...gradient, [key]: next } });
  const setColor = (i: number, key: string, next: unknown) =>
    setGradient(
      "colors",
      colors.map((c, j) => (j === i ? { ...c, [key]: next } : c)),
    );
  return html`
    <div class="gradient-field" data-prop=${name}>
      <label class="inline"><input type="checkbox" data-prop=${`${name}.useGradient`} checked=${current["useGradient"] === true} disabled=${readOnly}
        onChange=${(e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          onChange(
            on && colors.length === 0
              ? { ...current, useGradient: true, gradient: { type: "linear", direction: "to bottom", colors: [{ color: "#ffffff" }, { color: "#e5e7eb" }] } }
              : { ...current, useGradient: on },
          );
        }} /> Gradient</label>
      ${
        current["useGradient"] === true &&
        html`<div class="gradient-detail">
          <label>type<select value=${String(gradient["type"] ?? "linear")} disabled=${readOnly} onChange=${(e: Event) => setGradient("type", inputValue(e))}>
            <option value="linear">linear</option><option value="radial">radial</option></select></label>
          <label>direction<input type="text" size="12" value=${String(gradient["direction"] ?? "")} placeholder="to right, 45deg, circle" readOnly=${readOnly}
            onInput=${(e: Event) => setGradient("direction", inputValue(e))} /></label>
          ${colors.map(
            (c, i) => html`<div class="stop">
              <label>colour<input type="text" size="9" value=${String(c["color"] ?? "")} readOnly=${readOnly} onInput=${(e: Event) => setColor(i, "color", inputValue(e))} /></label>
              <label>at<input type="number" min="0" max="100" value=${typeof c["position"] === "number" ? c["position"] : ""} readOnly=${readOnly}
                onInput=${(e: Event) => setColor(i, "position", inputValue(e) === "" ? undefined : Number(inputValue(e)))} />%</label>
              ${
                !readOnly &&
                html`<button type="button" class="small" aria-label="Remove this colour" onClick=${() =>
                  setGradient(
                    "colors",
                    colors.filter((_, j) => j !== i),
                  )}>×</button>`
              }
            </div>`,
          )}
          ${!readOnly && html`<button type="button" class="small" onClick=${() => setGradient("colors", [...colors, { color: "#000000" }])}>Add a colour</button>`}
        </div>`
      }
    </div>
  `;
}

function SuggestedField({ field, value, fallback, name, readOnly, onChange }: FieldProps) {
  if (field.kind !== "fontFamily" && field.kind !== "css") return null;
  const list = `${idFor(name)}-list`;
  return html`
    <input id=${idFor(name)} data-prop=${name} type="text" list=${list} value=${typeof value === "string" ? value : ""} placeholder=${fallback === undefined ? "" : String(fallback)}
      readOnly=${readOnly} spellcheck=${false} autocomplete="off" onInput=${(e: Event) => onChange(inputValue(e) === "" ? undefined : inputValue(e))} />
    <datalist id=${list}>${field.suggestions.map((s) => html`<option value=${s}></option>`)}</datalist>
  `;
}

function EntriesField(props: FieldProps) {
  const { field, value, name, readOnly, onChange } = props;
  if (field.kind !== "entries") return null;
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const setItem = (i: number, key: string, next: unknown) => {
    const copy = [...items];
    const item: Record<string, unknown> = { ...(isObject(copy[i]) ? copy[i] : {}) };
    if (next === undefined) delete item[key];
    else item[key] = next;
    copy[i] = item;
    onChange(copy);
  };
  const move = (i: number, by: number) => {
    const copy = [...items];
    const [item] = copy.splice(i, 1);
    copy.splice(i + by, 0, item);
    onChange(copy);
  };
  return html`
    <ol class="entries" data-prop=${name}>
      ${items.map(
        (item, i) => html`<li>
          <div class="entry-head"><strong>${field.itemLabel} ${i + 1}</strong>
            ${
              !readOnly &&
              html`<span class="entry-tools">
              <button type="button" class="small" aria-label=${`Move ${field.itemLabel} ${i + 1} up`} disabled=${i === 0} onClick=${() => move(i, -1)}>↑</button>
              <button type="button" class="small" aria-label=${`Move ${field.itemLabel} ${i + 1} down`} disabled=${i === items.length - 1} onClick=${() => move(i, 1)}>↓</button>
              <button type="button" class="small danger" aria-label=${`Remove ${field.itemLabel} ${i + 1}`} onClick=${() => onChange(items.filter((_, j) => j !== i))}>×</button>
            </span>`
            }
          </div>
          ${(field.fields as readonly Field[]).map(
            (inner) => html`<${FieldRow} ...${props} field=${inner} name=${`${name}.${i}.${inner.prop}`}
              value=${isObject(item) ? item[inner.prop] : undefined} fallback=${inner.default} onChange=${(next: unknown) => setItem(i, inner.prop, next)} />`,
          )}
        </li>`,
      )}
    </ol>
    ${!readOnly && html`<button type="button" class="small" data-testid=${`add-${name}`} onClick=${() => onChange([...items, {}])}>Add ${field.itemLabel.toLowerCase()}</button>`}
  `;
}

function JsonField({ value, name, readOnly, onChange }: FieldProps) {
  return html`<textarea data-prop=${name} rows="3" readOnly=${readOnly} value=${value === undefined ? "" : JSON.stringify(value, null, 2)}
    onChange=${(e: Event) => {
      const text = inputValue(e).trim();
      try {
        onChange(text === "" ? undefined : JSON.parse(text));
      } catch {
        // Not JSON yet: kept in the box, not in the template.
      }
    }}></textarea>`;
}

export function FieldInput(props: FieldProps) {
  const { field } = props;
  switch (field.kind) {
    case "text":
    case "url":
    case "imageUrl":
      return html`<${TextField} ...${props} />`;
    case "richText":
      return html`<${RichText} prop=${props.name} label=${field.label} value=${typeof props.value === "string" ? props.value : ""} markup=${field.markup}
        tags=${props.tags} readOnly=${props.readOnly} onChange=${(next: string) => props.onChange(next)} />`;
    case "color":
      return html`<${ColorField} ...${props} />`;
    case "number":
      return html`<${NumberField} ...${props} />`;
    case "enum":
      return html`<${EnumField} ...${props} />`;
    case "boolean":
      return html`<${BooleanField} ...${props} />`;
    case "spacing":
      return html`<${SpacingField} ...${props} />`;
    case "border":
      return html`<${BorderField} ...${props} />`;
    case "gradient":
      return html`<${GradientField} ...${props} />`;
    case "fontFamily":
    case "css":
      return html`<${SuggestedField} ...${props} />`;
    case "entries":
      return html`<${EntriesField} ...${props} />`;
    case "visibility":
      return html`<${VisibilityBuilder} value=${props.value} operators=${field.operators} name=${props.name} contextKeys=${props.contextKeys}
        readOnly=${props.readOnly} onChange=${props.onChange} />`;
    default:
      return html`<${JsonField} ...${props} />`;
  }
}

/** A field with its label, hint and a reset to the default. */
export function FieldRow(props: FieldProps) {
  const { field, value, name, readOnly, onChange } = props;
  const composite = field.kind === "boolean" || field.kind === "visibility" || field.kind === "entries";
  return html`
    <div class=${`field kind-${field.kind}${value === undefined ? "" : " set"}`}>
      <div class="field-label">
        ${field.kind === "boolean" ? html`<span></span>` : composite ? html`<span>${field.label}</span>` : html`<label for=${idFor(name)}>${field.label}</label>`}
        ${
          value !== undefined &&
          !readOnly &&
          html`<button type="button" class="reset" title="Back to the default" aria-label=${`Reset ${field.label}`} onClick=${() => onChange(undefined)}>↺</button>`
        }
      </div>
      <${FieldInput} ...${props} />
      ${field.hint && html`<p class="hint muted">${field.hint}</p>`}
    </div>
  `;
}
