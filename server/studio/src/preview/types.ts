/** The answers of the studio's preview endpoints (server/src/routes/studio.ts). */

export interface Warning {
  code: string;
  message: string;
  path: string[];
}

export interface TargetOutput {
  output: string;
  bytes: number;
  warnings: Warning[];
}

/** Why a node is shown or hidden for the sample's context (the engine's `explainVisibility`). */
export interface Decision {
  id: string;
  path: string[];
  kind: string;
  block: string | null;
  visible: boolean;
  reason: string;
  match: string | null;
  rules: { tag: string; operator: string; value: string; actual: string | null; passed: boolean }[];
  hiddenOn: string[];
}

/** A finding of the template checks: where, how bad, what to do. */
export interface Finding {
  severity: string;
  code: string;
  path: string[];
  value: unknown;
  message: string;
  hint: string;
}

export type Target = "html" | "mjml" | "react-email";

export interface DraftPreview {
  html: TargetOutput;
  text: string;
  gmail_clip_bytes: number;
  visibility: Decision[];
  findings: Finding[];
  merge_tags: { name: string; group: string | null; reads: string; default: string | null }[];
  context_keys: string[];
  sample: SampleData;
  view: { target: Exclude<Target, "html">; source: TargetOutput; html: string | null; made_by: string; error: string | null } | null;
}

export interface SampleData {
  merge_tags?: { text?: Record<string, string>; url?: Record<string, string>; attr?: Record<string, string> };
  context?: Record<string, string | number | boolean>;
}
