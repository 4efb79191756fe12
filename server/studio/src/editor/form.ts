/**
 * The settings form of the selected node, generated from its editor description: its groups of
 * fields; on the Phone tab the fields phones override (`mobile.<prop>`, the desktop value showing
 * through until set); on the Dark tab the dark-mode colours (`dark.<key>`, beside the light colour
 * each replaces). A row also gets its number of columns; any node the visibility explanation of the
 * current sample.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import type { Decision, Finding } from "../preview/types.js";
import { type Description, type Descriptions, type Field, fieldsOf } from "./description.js";
import { FieldRow } from "./fields.js";
import { blockType, type Doc, getAt, isObject, kindAt, type NodeKind, settingsPath } from "./model.js";

export interface FormContext {
  tags: readonly string[];
  contextKeys: readonly string[];
  readOnly: boolean;
}

export function descriptionOf(descriptions: Descriptions, doc: Doc, path: string): Description | undefined {
  const kind = kindAt(doc, path);
  if (kind === "canvas") return descriptions.canvas;
  if (kind === "row") return descriptions.row;
  if (kind === "column") return descriptions.column;
  if (kind === "spacer") return descriptions.rowSpacer;
  if (kind === "block") return descriptions.blocks.find((b) => b.type === blockType(getAt(doc, path)));
  return undefined;
}

type Tab = "settings" | "phone" | "dark";

const KIND_NAMES: Record<NodeKind, string> = { canvas: "Email", row: "Row", spacer: "Row spacer", column: "Column", block: "Block" };

/**
 * The findings about this node's settings, each as the dotted path under them
 * (`link`, `platforms.0.link`): a field shows those at its prop or inside it (a list's entries).
 */
function findingsInside(findings: readonly Finding[], settings: readonly string[]): { prop: string; finding: Finding }[] {
  return findings
    .filter((f) => f.path.length > settings.length && settings.every((segment, i) => f.path[i] === segment))
    .map((finding) => ({ prop: finding.path.slice(settings.length).join("."), finding }));
}

/** The value at a dotted prop inside the node's settings. */
function valueAt(settings: unknown, prop: string): unknown {
  return getAt(settings, prop.split("."));
}

export function NodeForm({
  doc,
  path,
  descriptions,
  context,
  decision,
  findings,
  onChange,
  onColumns,
}: {
  doc: Doc;
  path: string;
  descriptions: Descriptions;
  context: FormContext;
  decision: Decision | undefined;
  /** The template checks' findings (the preview's); those about a field are shown under it. */
  findings: readonly Finding[];
  /** A change of a setting: its path under the node's settings, and the new value (undefined removes it). */
  onChange: (prop: string, value: unknown) => void;
  onColumns: (count: number) => void;
}) {
  const [tab, setTab] = useState<Tab>("settings");
  const kind = kindAt(doc, path);
  if (kind === undefined) return html`<p class="muted">Nothing selected.</p>`;
  const node = getAt(doc, path);
  const settings = getAt(doc, settingsPath(doc, path));
  const description = descriptionOf(descriptions, doc, path);
  if (description === undefined) {
    return html`<div class="form">
      <h2>${blockType(node) || "Unknown"} <span class="muted">(not a block this server's engine knows)</span></h2>
      <p class="muted">It renders nothing and its settings are kept as they are; edit them in the JSON.</p>
    </div>`;
  }
  const phoneFields = fieldsOf(description).filter((f) => f.phone);
  const tabs: Tab[] = ["settings", ...(phoneFields.length > 0 ? (["phone"] as const) : []), ...(description.dark.length > 0 ? (["dark"] as const) : [])];
  const shown = tabs.includes(tab) ? tab : "settings";
  const inside = findingsInside(findings, settingsPath(doc, path));
  const row = (field: Field, name: string, value: unknown, fallback: unknown, prop: string) =>
    html`<${FieldRow} key=${name} field=${field} name=${name} value=${value} fallback=${fallback} tags=${context.tags} contextKeys=${context.contextKeys}
      readOnly=${context.readOnly} onChange=${(next: unknown) => onChange(prop, next)} />
      ${inside
        .filter((f) => f.prop === prop || f.prop.startsWith(`${prop}.`))
        .map(
          ({ finding: f }) => html`<p class=${`field-finding ${f.severity}`} data-finding-prop=${prop} key=${`${f.code}:${f.path.join(".")}`}>
          <strong>${f.message}</strong> ${f.hint}</p>`,
        )}`;
  const id = isObject(node) && (typeof node["id"] === "string" || typeof node["id"] === "number") ? String(node["id"]) : "";
  return html`
    <div class="form" data-form-path=${path}>
      <div class="form-head">
        <h2>${description.label} ${id && html`<span class="muted mono small-text">${id}</span>`}</h2>
        <p class="muted small-text">${description.description}</p>
      </div>
      ${
        tabs.length > 1 &&
        html`<div class="tabs" role="tablist" aria-label=${`${KIND_NAMES[kind]} settings`}>
        ${tabs.map(
          (
            t,
          ) => html`<button type="button" role="tab" data-testid=${`tab-${t}`} aria-selected=${t === shown} class=${t === shown ? "current" : ""} onClick=${() => setTab(t)}>
            ${t === "settings" ? "Settings" : t === "phone" ? "Phone" : "Dark mode"}</button>`,
        )}
      </div>`
      }
      ${
        shown === "settings" &&
        html`
        ${kind === "row" && html`<${ColumnCount} count=${Array.isArray((node as Record<string, unknown>)["columns"]) ? ((node as Record<string, unknown>)["columns"] as unknown[]).length : 0} readOnly=${context.readOnly} onColumns=${onColumns} />`}
        ${description.groups.map(
          (group) => html`<details open class="group" key=${group.id}>
            <summary>${group.label}</summary>
            ${group.fields.map((field) => row(field, field.prop, valueAt(settings, field.prop), field.default, field.prop))}
          </details>`,
        )}`
      }
      ${
        shown === "phone" &&
        html`<p class="muted small-text">Under the mobile breakpoint these replace the desktop values, shown greyed until set.</p>
        ${description.groups.map((group) => {
          const fields = group.fields.filter((f) => f.phone);
          return (
            fields.length > 0 &&
            html`<details open class="group" key=${group.id}><summary>${group.label}</summary>
              ${fields.map((field) =>
                row(
                  field,
                  `mobile.${field.prop}`,
                  valueAt(settings, `mobile.${field.prop}`),
                  valueAt(settings, field.prop) ?? field.default,
                  `mobile.${field.prop}`,
                ),
              )}
            </details>`
          );
        })}`
      }
      ${
        shown === "dark" &&
        html`<p class="muted small-text">Colours for readers in dark mode (Apple Mail, iOS, Outlook.com); the preview's Dark scheme shows them.</p>
        ${description.dark.map((dark) => {
          const light = fieldsOf(description).find((f) => f.dark === dark.key);
          const lightValue = light ? (valueAt(settings, light.prop) ?? light.default) : undefined;
          const kind = dark.kind ?? "color";
          const field: Field = {
            prop: `dark.${dark.key}`,
            label: dark.label,
            kind,
            hint: lightValue === undefined || kind !== "color" ? undefined : `Replaces ${String(lightValue)}`,
          } as Field;
          return row(field, `dark.${dark.key}`, valueAt(settings, `dark.${dark.key}`), undefined, `dark.${dark.key}`);
        })}`
      }
      ${decision && html`<${Explanation} decision=${decision} />`}
    </div>
  `;
}

function ColumnCount({ count, readOnly, onColumns }: { count: number; readOnly: boolean; onColumns: (n: number) => void }) {
  return html`<div class="field">
    <div class="field-label"><span>Columns</span></div>
    <div class="segmented" role="group" aria-label="Number of columns">
      ${[1, 2, 3, 4].map(
        (n) => html`<button type="button" class=${n === count ? "current" : ""} aria-pressed=${n === count} data-testid=${`columns-${n}`} disabled=${readOnly}
          onClick=${() => onColumns(n)}>${n}</button>`,
      )}
    </div>
    <p class="hint muted">Widths become equal; blocks of a removed column move to the last one kept. Set a column's width by selecting it.</p>
  </div>`;
}

/** Whether the sample data shows the node, and why (the engine's `explainVisibility`). */
function Explanation({ decision }: { decision: Decision }) {
  return html`<div class="explanation" data-testid="visibility-explanation">
    <strong>With the sample data:</strong> ${decision.visible ? html`<span class="ok">shown</span>` : html`<span class="bad">hidden</span>`} — ${decision.reason}
    ${decision.hiddenOn.length > 0 && html`<div class="muted">hidden on ${decision.hiddenOn.join(" and ")}</div>`}
    ${
      decision.rules.length > 0 &&
      html`<ul>${decision.rules.map(
        (r) =>
          html`<li class=${r.passed ? "ok" : "bad"}><span class="mono">${r.tag} ${r.operator} ${JSON.stringify(r.value)}</span> — the sample has ${r.actual === null ? "no value" : JSON.stringify(r.actual)}: ${r.passed ? "passed" : "failed"}</li>`,
      )}</ul>`
    }
  </div>`;
}
