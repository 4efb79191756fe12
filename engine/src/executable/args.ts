/**
 * The human commands' options: `--name value`, `--name=value`, `--flag`, strict (an unknown option,
 * a missing value or a positional argument is an error), as node:util's `parseArgs` reads them with
 * `strict: true, allowPositionals: false` (test/args.test.ts holds the two together).
 */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** A string option given any number of times: its values in order. */
  readonly multiple?: boolean;
}

export type Options = Readonly<Record<string, OptionSpec>>;

/** The values of the options given: a string for a string option (all of them for a `multiple` one), true for a flag. */
export type Values<O extends Options> = {
  [K in keyof O]?: O[K]["type"] extends "string" ? (O[K]["multiple"] extends true ? string[] : string) : boolean;
};

export function parseArgs<O extends Options>(args: readonly string[], options: O): Values<O> {
  const values: Record<string, string | string[] | boolean> = {};
  const byShort = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
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
    const spec = options[name];
    if (spec === undefined) throw new TypeError(`Unknown option '--${name}'`);
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new TypeError(`Option '--${name}' does not take an argument`);
      values[name] = true;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined) throw new TypeError(`Option '--${name} <value>' argument missing`);
      const given = values[name];
      values[name] = spec.multiple === true ? [...(Array.isArray(given) ? given : []), value] : value;
    }
  }
  return values as Values<O>;
}
