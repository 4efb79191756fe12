/** `node:util`'s `format` and `parseArgs`, as far as the engine uses them, for the QuickJS runtime. */
export function format(...args: unknown[]): string {
  return args.map((a) => (typeof a === "string" ? a : a instanceof Error ? (a.stack ?? a.message) : safeJson(a))).join(" ");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
}

/** Strict, no positionals: the only way the engine's human commands call it. */
export function parseArgs(config: { args: string[]; options: Record<string, OptionSpec>; strict?: boolean; allowPositionals?: boolean }): {
  values: Record<string, string | boolean>;
  positionals: string[];
} {
  const values: Record<string, string | boolean> = {};
  const byShort = new Map(Object.entries(config.options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  const args = config.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else if (arg.startsWith("-") && arg.length === 2) {
      name = byShort.get(arg.slice(1));
      if (name === undefined) throw new TypeError(`Unknown option '${arg}'`);
    } else {
      throw new TypeError(`Unexpected argument '${arg}'. This command does not take positional arguments`);
    }
    const spec = config.options[name];
    if (spec === undefined) throw new TypeError(`Unknown option '--${name}'`);
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new TypeError(`Option '--${name}' does not take an argument`);
      values[name] = true;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined) throw new TypeError(`Option '--${name} <value>' argument missing`);
      values[name] = value;
    }
  }
  return { values, positionals: [] };
}
