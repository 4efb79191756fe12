/**
 * The visibility rule builder: show a row, column or block only to recipients whose context matches
 * — rules (context key, operator, value) and groups of rules, each matching all or any — in the
 * format's shape (spec/template.md, "Visibility rules"). The operators come from the engine's editor
 * description.
 */
import { html } from "htm/preact";
import type { Option } from "./description.js";
import { isObject } from "./model.js";

type Rule = Record<string, unknown>;
type Group = { match?: unknown; rules?: unknown } & Record<string, unknown>;

/** Operators that compare with nothing. */
const UNARY = new Set(["is_empty", "is_not_empty", "is_set", "is_not_set"]);

function rulesOf(value: unknown): Rule[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function RuleRow({
  rule,
  name,
  operators,
  keysList,
  readOnly,
  onChange,
  onRemove,
}: {
  rule: Rule;
  name: string;
  operators: Option[];
  keysList: string;
  readOnly: boolean;
  onChange: (rule: Rule) => void;
  onRemove: () => void;
}) {
  const operator = String(rule["operator"] ?? "==");
  const value = rule["value"] === undefined || rule["value"] === null ? "" : String(rule["value"]);
  const known = operators.some((o) => o.value === operator);
  return html`
    <div class="rule" data-prop=${name}>
      <input type="text" aria-label="Context key" placeholder="context key" list=${keysList} data-prop=${`${name}.tag`} value=${String(rule["tag"] ?? "")}
        readOnly=${readOnly} spellcheck=${false} onInput=${(e: Event) => onChange({ ...rule, tag: (e.target as HTMLInputElement).value })} />
      <select aria-label="Operator" data-prop=${`${name}.operator`} value=${operator} disabled=${readOnly}
        onChange=${(e: Event) => onChange({ ...rule, operator: (e.target as HTMLSelectElement).value })}>
        ${operators.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
        ${!known && html`<option value=${operator}>${operator}</option>`}
      </select>
      ${
        UNARY.has(operator)
          ? html`<span class="muted">—</span>`
          : html`<input type="text" aria-label="Value" data-prop=${`${name}.value`} value=${value} readOnly=${readOnly}
            placeholder=${operator.startsWith("date_") ? "YYYY-MM-DD" : operator.endsWith("in") ? "a, b, c" : "value"}
            onInput=${(e: Event) => onChange({ ...rule, value: (e.target as HTMLInputElement).value })} />`
      }
      ${!readOnly && html`<button type="button" class="small danger" aria-label="Remove this rule" onClick=${onRemove}>×</button>`}
    </div>
  `;
}

function MatchSelect({
  value,
  name,
  readOnly,
  onChange,
  what,
}: {
  value: unknown;
  name: string;
  readOnly: boolean;
  onChange: (m: string) => void;
  what: string;
}) {
  return html`<label class="inline">Show when
    <select data-prop=${name} value=${value === "any" ? "any" : "all"} disabled=${readOnly} onChange=${(e: Event) => onChange((e.target as HTMLSelectElement).value)}>
      <option value="all">all</option><option value="any">any</option>
    </select> ${what}</label>`;
}

function RuleList({
  rules,
  name,
  operators,
  keysList,
  readOnly,
  onChange,
}: {
  rules: Rule[];
  name: string;
  operators: Option[];
  keysList: string;
  readOnly: boolean;
  onChange: (rules: Rule[]) => void;
}) {
  return html`${rules.map(
    (rule, i) => html`<${RuleRow} rule=${rule} name=${`${name}.${i}`} operators=${operators} keysList=${keysList} readOnly=${readOnly}
      onChange=${(next: Rule) => onChange(rules.map((r, j) => (j === i ? next : r)))} onRemove=${() => onChange(rules.filter((_, j) => j !== i))} />`,
  )}`;
}

export function VisibilityBuilder({
  value,
  operators,
  name,
  contextKeys,
  readOnly,
  onChange,
}: {
  value: unknown;
  operators: Option[];
  name: string;
  contextKeys: readonly string[];
  readOnly: boolean;
  onChange: (value: unknown) => void;
}) {
  const current = isObject(value) ? value : {};
  const enabled = current["enabled"] === true || current["enabled"] === "true";
  const rules = rulesOf(current["rules"]);
  const groups = (Array.isArray(current["groups"]) ? current["groups"].filter(isObject) : []) as Group[];
  const set = (key: string, next: unknown) => onChange({ ...current, [key]: next });
  const keysList = `${name.replace(/\W/g, "-")}-keys`;
  const newRule = (): Rule => ({ tag: contextKeys[0] ?? "", operator: "==", value: "" });
  return html`
    <div class="visibility" data-prop=${name}>
      <label class="inline"><input type="checkbox" data-prop=${`${name}.enabled`} checked=${enabled} disabled=${readOnly}
        onChange=${(e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          onChange(
            on && rules.length === 0 && groups.length === 0 ? { match: "all", ...current, enabled: true, rules: [newRule()] } : { ...current, enabled: on },
          );
        }} /> Only for some recipients</label>
      <datalist id=${keysList}>${contextKeys.map((k) => html`<option value=${k}></option>`)}</datalist>
      ${
        enabled &&
        html`<div class="rules">
          <${MatchSelect} value=${current["match"]} name=${`${name}.match`} readOnly=${readOnly} onChange=${(m: string) => set("match", m)} what="of these match:" />
          <${RuleList} rules=${rules} name=${`${name}.rules`} operators=${operators} keysList=${keysList} readOnly=${readOnly} onChange=${(next: Rule[]) => set("rules", next)} />
          ${groups.map(
            (group, gi) => html`<fieldset class="rule-group">
              <legend><${MatchSelect} value=${group.match} name=${`${name}.groups.${gi}.match`} readOnly=${readOnly}
                onChange=${(m: string) =>
                  set(
                    "groups",
                    groups.map((g, j) => (j === gi ? { ...g, match: m } : g)),
                  )} what="of this group:" /></legend>
              <${RuleList} rules=${rulesOf(group.rules)} name=${`${name}.groups.${gi}.rules`} operators=${operators} keysList=${keysList} readOnly=${readOnly}
                onChange=${(next: Rule[]) =>
                  set(
                    "groups",
                    groups.map((g, j) => (j === gi ? { ...g, rules: next } : g)),
                  )} />
              ${
                !readOnly &&
                html`<div class="row">
                <button type="button" class="small" onClick=${() =>
                  set(
                    "groups",
                    groups.map((g, j) => (j === gi ? { ...g, rules: [...rulesOf(g.rules), newRule()] } : g)),
                  )}>Add a rule to the group</button>
                <button type="button" class="small danger" onClick=${() =>
                  set(
                    "groups",
                    groups.filter((_, j) => j !== gi),
                  )}>Remove the group</button>
              </div>`
              }
            </fieldset>`,
          )}
          ${
            !readOnly &&
            html`<div class="row">
            <button type="button" class="small" data-testid=${`${name}-add-rule`} onClick=${() => set("rules", [...rules, newRule()])}>Add a rule</button>
            <button type="button" class="small" data-testid=${`${name}-add-group`} onClick=${() => set("groups", [...groups, { match: "any", rules: [newRule()] }])}>Add a group</button>
          </div>`
          }
        </div>`
      }
    </div>
  `;
}
