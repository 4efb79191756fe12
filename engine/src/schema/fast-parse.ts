/**
 * A zod schema's success path as plain closures, compiled from the schema itself: the same checks,
 * defaults and transforms in the same order, without zod's per-field machinery (a payload object,
 * a `run` wrapper and an issue list for every field). Reading a template is mostly a well-formed
 * object checked field by field, and in zod that machinery costs more than the checks. A value the
 * closures refuse is `INVALID`, and the caller asks zod again, which reports exactly what is wrong:
 * zod stays the one definition of what is valid and of every error. Kinds compiled here are the
 * ones the template schemas use; any other schema (and any variant such as a coercing string or a
 * discriminated union) is run by zod itself, so an unknown kind is slower, never different.
 * test/fast-parse.test.ts checks both paths agree on every fixture and on broken variants of them.
 */
import type * as z from "zod/mini";

/** What a compiled parser returns for a value zod would refuse. */
export const INVALID: unique symbol = Symbol("invalid");

type Parser = (value: unknown) => unknown;
type Schema = z.core.$ZodType;
type Check = z.core.$ZodCheck;
interface Payload {
  value: unknown;
  issues: z.core.$ZodRawIssue[];
}

let compiled = new WeakMap<Schema, Parser>();
const SYNC = { async: false } as const;

/** `value` parsed by `schema` as zod parses it when valid; `INVALID` when zod would report issues. */
export function fastParse<S extends Schema>(schema: S, value: unknown): z.output<S> | typeof INVALID {
  return parserOf(schema)(value) as z.output<S> | typeof INVALID;
}

function parserOf(schema: Schema): Parser {
  let parser = compiled.get(schema);
  if (parser === undefined) {
    parser = compilable(schema) ? withChecks(schema, compile(schema)) : byZod(schema);
    compiled.set(schema, parser);
  }
  return parser;
}

/** A part's parser, called as `cell.parse(value)`: one call per value, no trampoline once compiled. */
interface Cell {
  parse: Parser;
}

/**
 * A part's parser, compiled when first called: a value that leaves a defaulted field out never
 * compiles that field's schema (the release executable compiles afresh in every process), and a
 * recursive schema compiles one level at a time. The first call puts the compiled parser in the
 * cell, so later ones go straight to it.
 */
function part(schema: Schema): Cell {
  const cell: Cell = {
    parse: (value) => {
      cell.parse = parserOf(schema);
      return cell.parse(value);
    },
  };
  return cell;
}

/**
 * A schema's definition: zod/mini's public `def`. In the executables' bundle a schema's internals
 * (`_zod`: its initialisers' work) are built only when first read (scripts/bundle-stubs.ts,
 * ZOD_PATCHES), so what the compiled parsers need of a schema is read from its definition, and what
 * zod's initialisers would derive from it (traits, optionality, an enum's values) is worked out here.
 */
function defOf(schema: Schema): z.core.$ZodTypeDef {
  return (schema as { def?: z.core.$ZodTypeDef }).def ?? schema._zod.def;
}

/**
 * The zod classes a schema is: the same for every instance of its class, so asked of one instance
 * per class. In the executables' bundle the class holds its first instance's (`traits`), so a
 * schema whose internals are not built yet is not built to be asked.
 */
const traitsByClass = new WeakMap<object, ReadonlySet<string>>();

function traitsOf(schema: Schema): ReadonlySet<string> {
  let traits = traitsByClass.get(schema.constructor);
  if (traits === undefined) {
    traits =
      (schema.constructor as { readonly traits?: ReadonlySet<string> }).traits ?? (schema._zod as unknown as { readonly traits: ReadonlySet<string> }).traits;
    traitsByClass.set(schema.constructor, traits);
  }
  return traits;
}

type OptIn = "optional" | "defaulted" | undefined;
type OptOut = "optional" | undefined;
/** The parts of a wrapper's definition that its optionality comes from (each kind has some of them). */
interface WrapperDef {
  readonly type: string;
  readonly innerType: Schema;
  readonly in: Schema;
  readonly out: Schema;
  readonly options: readonly Schema[];
}

/** The kinds whose initialisers set neither `optin` nor `optout`. */
const NEVER_OPTIONAL: ReadonlySet<string> = new Set(["string", "number", "boolean", "null", "unknown", "enum", "literal", "array", "object"]);

/**
 * zod's `optin`: whether a key may be absent from the input ("optional") or is filled in when it is
 * ("defaulted"), by the rules of zod's initialisers for the kinds compiled here (their variants, an
 * exact optional, a codec, a discriminated or exclusive union, initialise theirs as the kind does);
 * asked of zod for any other kind.
 */
function optIn(schema: Schema): OptIn {
  const def = defOf(schema) as unknown as WrapperDef;
  if (NEVER_OPTIONAL.has(def.type)) return undefined;
  switch (def.type) {
    case "optional":
      return optIn(def.innerType) === "defaulted" ? "defaulted" : "optional";
    case "nullable":
      return optIn(def.innerType);
    case "default":
    case "prefault":
      return "defaulted";
    case "transform":
      return "optional";
    case "pipe":
      return optIn(def.in);
    case "union":
      if (def.options.some((option) => optIn(option) === "defaulted")) return "defaulted";
      return def.options.some((option) => optIn(option) !== undefined) ? "optional" : undefined;
    default:
      return schema._zod.optin;
  }
}

/** zod's `optout`: whether a key may be absent from the output; as `optIn`. */
function optOut(schema: Schema): OptOut {
  const def = defOf(schema) as unknown as WrapperDef;
  if (NEVER_OPTIONAL.has(def.type)) return undefined;
  switch (def.type) {
    case "default":
    case "prefault":
    case "transform":
      return undefined;
    case "optional":
      return "optional";
    case "nullable":
      return optOut(def.innerType);
    case "pipe":
      return optOut(def.out);
    case "union":
      return def.options.some((option) => optOut(option) === "optional") ? "optional" : undefined;
    default:
      return schema._zod.optout;
  }
}

/** zod's `values` of a literal or an enum (an enum of strings: any other is asked of zod). */
function valuesOf(schema: Schema): ReadonlySet<unknown> {
  const def = defOf(schema) as z.core.$ZodTypeDef & { values?: readonly unknown[]; entries?: Readonly<Record<string, unknown>> };
  if (def.type === "literal") return new Set(def.values);
  const values = Object.values(def.entries ?? {});
  return values.every((value) => typeof value === "string") ? new Set(values) : schema._zod.values!;
}

/** What the compiled parsers work out of a schema without its internals (test/fast-parse.test.ts holds it to zod's). */
export function workedOut(schema: Schema): { traits: ReadonlySet<string>; optin: OptIn; optout: OptOut; values: ReadonlySet<unknown> | undefined } {
  const type = defOf(schema).type;
  return {
    traits: traitsOf(schema),
    optin: optIn(schema),
    optout: optOut(schema),
    values: type === "enum" || type === "literal" ? valuesOf(schema) : undefined,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** zod's own run (checks included): for the kinds not compiled here. */
function byZod(schema: Schema): Parser {
  return (value) => {
    const result = schema._zod.run({ value, issues: [] }, SYNC);
    return result instanceof Promise || result.issues.length > 0 ? INVALID : result.value;
  };
}

/** A check's success path as a step: the value it passes on, or `INVALID`. */
type Step = (value: unknown) => unknown;

/**
 * A schema's checks (refinements, bounds, trim) run after its type, on its output, as zod runs them.
 * The kinds the template schemas use most are steps calling the check's own function or bound;
 * when any is another kind (or runs only `when` something holds), every check runs as zod runs it,
 * on one payload per schema, reused: a check returns before the next value reaches it.
 */
function withChecks(schema: Schema, parse: Parser): Parser {
  const checks = (defOf(schema).checks ?? []) as Check[];
  if (checks.length === 0) return parse;
  const steps = checks.map(stepOf);
  if (steps.every((step) => step !== undefined)) return withSteps(defOf(schema).type, parse, steps as Step[]);
  const payload: Payload = { value: undefined, issues: [] };
  return (value) => {
    const parsed = parse(value);
    if (parsed === INVALID) return INVALID;
    payload.value = parsed;
    for (let i = 0; i < checks.length; i++) {
      const check = checks[i]!;
      const when = check._zod.def.when;
      if (when && !when(payload as z.core.ParsePayload)) continue;
      if (check._zod.check(payload as z.core.ParsePayload<never>) instanceof Promise || payload.issues.length > 0) {
        // Emptied only here: it is empty whenever a check runs.
        payload.issues = [];
        return INVALID;
      }
    }
    const out = payload.value;
    payload.value = undefined;
    return out;
  };
}

/**
 * A type's parser followed by its steps, in one closure for the usual one or two steps (a trim, a
 * pattern, a bound): a string's or a number's type test written in it, so that a value costs one
 * call before its steps, not a call per stage.
 */
function withSteps(type: string, parse: Parser, steps: readonly Step[]): Parser {
  const first = steps[0]!;
  const second = steps[1];
  if (steps.length === 1 && type === "string") return (value) => (typeof value === "string" ? first(value) : INVALID);
  if (steps.length === 1 && type === "number") return (value) => (isNumber(value) ? first(value) : INVALID);
  if (steps.length === 2 && type === "string") {
    return (value) => {
      if (typeof value !== "string") return INVALID;
      const parsed = first(value);
      return parsed === INVALID ? INVALID : second!(parsed);
    };
  }
  if (steps.length === 2 && type === "number") {
    return (value) => {
      if (!isNumber(value)) return INVALID;
      const parsed = first(value);
      return parsed === INVALID ? INVALID : second!(parsed);
    };
  }
  return (value) => {
    let parsed = parse(value);
    for (let i = 0; i < steps.length && parsed !== INVALID; i++) parsed = steps[i]!(parsed);
    return parsed;
  };
}

/** What zod's number accepts: a finite number. */
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * Whether a function's result is a promise (zod's async checks and transforms). A boolean or a
 * string is tested without `instanceof`, which QuickJS answers by calling `Symbol.hasInstance`.
 */
const isPromise = (value: unknown): boolean => typeof value === "object" && value !== null && value instanceof Promise;

/**
 * A check as a step, for the kinds whose success zod decides in one line (checks.js and
 * `$ZodCustom` in schemas.js): an overwrite (`trim`), a refinement, a number's bound.
 */
function stepOf(check: Check): Step | undefined {
  const { def } = check._zod;
  // Every zod instance, a check too, lists the classes it is (`$constructor`).
  const { traits } = check._zod as unknown as { readonly traits: ReadonlySet<string> };
  if (def.when !== undefined) return undefined;
  if (traits.has("$ZodCheckOverwrite")) {
    // The overwrite's function is the step itself: it takes the value and returns the new one.
    return (def as z.core.$ZodCheckOverwriteDef).tx as Step;
  }
  if (traits.has("$ZodCustom") && def.check === "custom") {
    const fn = (def as unknown as z.core.$ZodCustomDef).fn as (value: unknown) => unknown;
    return (value) => {
      const ok = fn(value);
      return ok === true || (ok && !isPromise(ok)) ? value : INVALID;
    };
  }
  if (traits.has("$ZodCheckGreaterThan") || traits.has("$ZodCheckLessThan")) {
    const bound = def as z.core.$ZodCheckGreaterThanDef;
    const limit = bound.value;
    const inclusive = bound.inclusive;
    if (typeof limit !== "number") return undefined;
    return traits.has("$ZodCheckGreaterThan")
      ? (value) => ((inclusive ? (value as number) >= limit : (value as number) > limit) ? value : INVALID)
      : (value) => ((inclusive ? (value as number) <= limit : (value as number) < limit) ? value : INVALID);
  }
  return undefined;
}

/**
 * The zod class a compiled kind must be, and the variants of it that parse differently (a string
 * format, a codec, an exact optional, a discriminated or exclusive union, the eval-compiled object).
 */
const KINDS: Readonly<Record<string, readonly [string, ...string[]]>> = {
  string: ["$ZodString", "$ZodCheck"],
  number: ["$ZodNumber", "$ZodCheck"],
  boolean: ["$ZodBoolean"],
  null: ["$ZodNull"],
  unknown: ["$ZodUnknown"],
  enum: ["$ZodEnum"],
  literal: ["$ZodLiteral"],
  optional: ["$ZodOptional", "$ZodExactOptional"],
  nullable: ["$ZodNullable"],
  default: ["$ZodDefault"],
  prefault: ["$ZodPrefault"],
  pipe: ["$ZodPipe", "$ZodCodec"],
  transform: ["$ZodTransform"],
  union: ["$ZodUnion", "$ZodDiscriminatedUnion", "$ZodXor"],
  array: ["$ZodArray"],
  object: ["$ZodObject", "$ZodObjectJIT"],
};

function compilable(schema: Schema): boolean {
  const traits = traitsOf(schema);
  const def = defOf(schema);
  const kind = KINDS[def.type];
  if (kind === undefined || !traits.has(kind[0]) || (def as { coerce?: boolean }).coerce) return false;
  for (let i = 1; i < kind.length; i++) if (traits.has(kind[i]!)) return false;
  // Symbol keys and a `__proto__` key are rare enough to leave to zod.
  if (def.type !== "object") return true;
  const shape = (def as z.core.$ZodObjectDef).shape;
  return Object.getOwnPropertySymbols(shape).length === 0 && !Object.hasOwn(shape, "__proto__");
}

/** A compilable schema's parser, without its checks. */
function compile(schema: Schema): Parser {
  const def = defOf(schema) as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case "string":
      return (value) => (typeof value === "string" ? value : INVALID);
    case "number":
      return (value) => (isNumber(value) ? value : INVALID);
    case "boolean":
      return (value) => (typeof value === "boolean" ? value : INVALID);
    case "null":
      return (value) => (value === null ? null : INVALID);
    case "unknown":
      return (value) => value;
    case "enum":
    case "literal": {
      const values = valuesOf(schema);
      return (value) => (values.has(value as z.core.util.Primitive) ? value : INVALID);
    }
    case "optional":
      return optional(def as unknown as z.core.$ZodOptionalDef);
    case "nullable": {
      const inner = part((def as unknown as z.core.$ZodNullableDef).innerType);
      return (value) => (value === null ? null : inner.parse(value));
    }
    case "default": {
      const d = def as unknown as z.core.$ZodDefaultDef;
      const inner = part(d.innerType);
      const constant = constantDefaultOf(schema);
      if (constant !== undefined) {
        const fallback = constant.value;
        return (value) => {
          if (value === undefined) return fallback;
          const parsed = inner.parse(value);
          return parsed === undefined ? fallback : parsed;
        };
      }
      return (value) => {
        if (value === undefined) return d.defaultValue;
        const parsed = inner.parse(value);
        return parsed === undefined ? d.defaultValue : parsed;
      };
    }
    case "prefault": {
      const d = def as unknown as z.core.$ZodPrefaultDef;
      const inner = part(d.innerType);
      return (value) => inner.parse(value === undefined ? d.defaultValue : value);
    }
    case "pipe": {
      const d = def as unknown as z.core.$ZodPipeDef;
      const first = part(d.in);
      const then = part(d.out);
      return (value) => {
        const parsed = first.parse(value);
        return parsed === INVALID ? INVALID : then.parse(parsed);
      };
    }
    case "transform": {
      const transform = (def as unknown as z.core.$ZodTransformDef).transform;
      // A transform that declares no second parameter cannot add issues: it needs no payload.
      if (transform.length < 2) {
        return (value) => {
          const out = (transform as (value: unknown) => unknown)(value);
          return isPromise(out) ? INVALID : out;
        };
      }
      return (value) => {
        // The transform may add issues to its payload (a refinement written as a transform).
        const payload: Payload = { value, issues: [] };
        const out = transform(value, payload as z.core.ParsePayload);
        return isPromise(out) || payload.issues.length > 0 ? INVALID : out;
      };
    }
    case "union": {
      const options = (def as unknown as z.core.$ZodUnionDef).options.map(part);
      // The first option that accepts the value gives the result.
      return (value) => {
        for (let i = 0; i < options.length; i++) {
          const parsed = options[i]!.parse(value);
          if (parsed !== INVALID) return parsed;
        }
        return INVALID;
      };
    }
    case "array": {
      const element = part((def as unknown as z.core.$ZodArrayDef).element);
      return (value) => {
        if (!Array.isArray(value)) return INVALID;
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const parsed = element.parse(value[i]);
          if (parsed === INVALID) return INVALID;
          out[i] = parsed;
        }
        return out;
      };
    }
    default:
      return object(def as unknown as z.core.$ZodObjectDef);
  }
}

/**
 * A default held as a plain property of its definition (schema/constant-default.ts), a string,
 * number or boolean: the same value on every read, taken once instead of through a getter.
 */
function constantDefaultOf(schema: Schema): { readonly value: unknown } | undefined {
  const def = defOf(schema);
  if (def.type !== "default") return undefined;
  const held = Object.getOwnPropertyDescriptor(def, "defaultValue");
  if (held === undefined || !("value" in held)) return undefined;
  const type = typeof held.value;
  return type === "string" || type === "number" || type === "boolean" ? { value: held.value } : undefined;
}

function optional(def: z.core.$ZodOptionalDef): Parser {
  const inner = part(def.innerType);
  const substitutes = optIn(def.innerType) === "defaulted";
  return (value) => {
    if (value !== undefined) return inner.parse(value);
    if (!substitutes) return undefined;
    // A defaulted inner schema fills in for absence; when even that fails, the value is undefined.
    const parsed = inner.parse(undefined);
    return parsed === INVALID ? undefined : parsed;
  };
}

/** What an object's field needs of its schema: worked out once per schema, shared by every field built from it. */
interface Field {
  readonly value: Cell;
  /**
   * What parses a present value: a constant default's inner schema (the default only fills in for
   * absence, and for an inner `undefined`, which `assign` does too), else `value`.
   */
  readonly present: Cell;
  /** A constant default (a field written `constantDefault(…)`): what an absent key reads as. */
  readonly constant: { readonly value: unknown } | undefined;
  readonly optin: "optional" | "defaulted" | undefined;
  readonly optionalOut: boolean;
  /** What a key read as `undefined` does to the output, once known (`fillOf`). */
  fill: Fill | undefined;
}

/**
 * Many fields share a schema (a colour, a length, a flag: 289 fields of 117 schemas in the
 * newsletter), and an object made per field costs the release executable's interpreter a property
 * definition for each of its keys: the field's key is kept beside it instead.
 */
let fields = new WeakMap<Schema, Field>();

function fieldOf(schema: Schema): Field {
  let field = fields.get(schema);
  if (field === undefined) {
    const value = part(schema);
    const constant = constantDefaultOf(schema);
    const present = constant === undefined ? value : part((defOf(schema) as z.core.$ZodDefaultDef).innerType);
    field = { value, present, constant, optin: optIn(schema), optionalOut: optOut(schema) === "optional", fill: undefined };
    fields.set(schema, field);
  }
  return field;
}

/** zod's object: the shape's keys in order (absent ones as their optionality says), then a catchall's. */
function object(def: z.core.$ZodObjectDef): Parser {
  const keys = Object.keys(def.shape);
  const shape = def.shape;
  const shapeFields: Field[] = [];
  for (let i = 0; i < keys.length; i++) shapeFields.push(fieldOf(shape[keys[i]!]!));
  const catchall = def.catchall;
  const known = catchall && new Set(keys);
  // A strict object (catchall `never`) refuses any other key: looked for first, as a union tries
  // such an object on values of another shape.
  const strict = catchall !== undefined && defOf(catchall).type === "never";
  const rest = catchall && !strict ? fieldOf(catchall) : undefined;
  generatesCode ??= evalAllowed();
  const loop: Parser = (value) => {
    if (!isObject(value)) return INVALID;
    if (strict) for (const key in value) if (!known!.has(key)) return INVALID;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      // `assign` written out for the shape's fields, which are most of a template's values: the
      // release executable's interpreter pays for every call.
      const field = shapeFields[i]!;
      const key = keys[i]!;
      const raw = value[key];
      if (raw !== undefined) {
        const parsed = field.present.parse(raw);
        if (parsed === INVALID) return INVALID;
        out[key] = parsed === undefined && field.constant !== undefined ? field.constant.value : parsed;
      } else if (field.constant !== undefined) out[key] = field.constant.value;
      else if (!absent(field, key, value, out)) return INVALID;
    }
    if (rest === undefined) return out;
    for (const key in value) {
      if (known!.has(key) || key === "__proto__") continue;
      if (!assign(rest, key, value, out)) return INVALID;
    }
    return out;
  };
  if (rest !== undefined || !generatesCode) return loop;
  return tiered(loop, () => generatedObject(keys, shapeFields, strict ? known : undefined));
}

/**
 * Whether object parsers are generated as code: where a JIT compiles it (V8), an object read by
 * named keys in a function of its own avoids the shared loop's keyed reads and writes, which see
 * every schema's keys (megamorphic); a new template's render takes a few percent less CPU
 * (bench/RESULTS.md). An interpreter would only pay to compile the source in every process (the
 * release executable's host turns it off), and a page whose policy forbids `new Function` keeps
 * the loop.
 */
let generatesCode: boolean | undefined;

function evalAllowed(): boolean {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
}

/**
 * Values an object schema's loop reads before its code is generated: compiling it costs V8 ~0.1 ms,
 * and a process rendering one template reads most of its schemas once or twice (generated from
 * the first value, a new process's first newsletter took ~20% more CPU in Node).
 */
const GENERATE_AFTER = 32;
let generateAfter = GENERATE_AFTER;

/**
 * The host's choice (see `generatesCode`), and after how many values a schema's code is generated
 * (a test: from the first); parsers compiled before are dropped, so every later read follows it.
 */
export function generateParserCode(enabled: boolean, afterReads = GENERATE_AFTER): void {
  generatesCode = enabled && evalAllowed();
  generateAfter = afterReads;
  compiled = new WeakMap();
  fields = new WeakMap();
}

/** `loop` for the first values, then `generate()`'s parser. */
function tiered(loop: Parser, generate: () => Parser): Parser {
  let reads = 0;
  let current = loop;
  return (value) => {
    if (++reads === generateAfter) current = generate();
    return current(value);
  };
}

/**
 * `object`'s loop for a shape without a catchall (or a strict one), written out field by field: the
 * same reads, parses and writes in the same order. The source holds only the shape's keys, as
 * string literals (`JSON.stringify`); values reach it as arguments.
 */
function generatedObject(keys: readonly string[], shapeFields: readonly Field[], known: ReadonlySet<string> | undefined): Parser {
  const lines = ["return (value) => {", "if (typeof value !== 'object' || value === null || Array.isArray(value)) return INVALID;"];
  if (known !== undefined) lines.push("for (const key in value) if (!known.has(key)) return INVALID;");
  lines.push("const out = {};", "let raw, parsed;");
  for (let i = 0; i < keys.length; i++) {
    const key = JSON.stringify(keys[i]);
    const hasConstant = shapeFields[i]!.constant !== undefined;
    lines.push(
      `raw = value[${key}];`,
      `if (raw !== undefined) { parsed = fields[${i}].present.parse(raw); if (parsed === INVALID) return INVALID; out[${key}] = ${hasConstant ? `parsed === undefined ? fields[${i}].constant.value : parsed` : "parsed"}; }`,
      hasConstant ? `else out[${key}] = fields[${i}].constant.value;` : `else if (!absent(fields[${i}], ${key}, value, out)) return INVALID;`,
    );
  }
  lines.push("return out;", "};");
  return new Function("fields", "known", "absent", "INVALID", lines.join("\n"))(shapeFields, known, absent, INVALID) as Parser;
}

/**
 * One property, as zod's `handlePropertyResult` treats it; false when the object is invalid. A key
 * read as other than undefined is present, and its value is written whatever it parses to; only
 * the others without a constant default are asked `key in input`.
 */
function assign(field: Field, key: string, input: Record<string, unknown>, out: Record<string, unknown>): boolean {
  const raw = input[key];
  if (raw !== undefined) {
    const parsed = field.present.parse(raw);
    if (parsed === INVALID) return false;
    out[key] = parsed === undefined && field.constant !== undefined ? field.constant.value : parsed;
    return true;
  }
  return absent(field, key, input, out);
}

/** `assign` for a key read as `undefined`: absent, or present with that value. */
function absent(field: Field, key: string, input: Record<string, unknown>, out: Record<string, unknown>): boolean {
  // A constant default fills in for `undefined` whether the key is present or not.
  if (field.constant !== undefined) {
    out[key] = field.constant.value;
    return true;
  }
  const fill = field.fill ?? fillOf(field);
  const outcome = key in input ? fill.present : fill.absent;
  if (outcome === WRITE) out[key] = fill.value();
  else if (outcome === WRITE_UNDEFINED) out[key] = undefined;
  return outcome !== REFUSE;
}

/** What a key read as `undefined` does: nothing, a refusal, its parsed value written, or `undefined` written. */
const [NOTHING, REFUSE, WRITE, WRITE_UNDEFINED] = [0, 1, 2, 3] as const;
type Outcome = typeof NOTHING | typeof REFUSE | typeof WRITE | typeof WRITE_UNDEFINED;

/** A field's outcome for an absent key and for a key present with `undefined`, and the value it writes. */
interface Fill {
  readonly absent: Outcome;
  readonly present: Outcome;
  readonly value: () => unknown;
}

/**
 * zod's rules for a key read as `undefined` (`handlePropertyResult`), decided once per field: they
 * depend on the field's optionality and on what its schema makes of `undefined`, which is the same
 * every time (a node's `dark`, `padding`, `border`, background gradient and mobile overrides: most
 * of what a template leaves out). That value is parsed once and later keys get a copy of it: the
 * same keys in the same order, new objects and arrays as zod makes them. A value that is not plain
 * data (an instance, a frozen object, an accessor, a symbol key) is parsed for every key.
 */
function fillOf(field: Field): Fill {
  const { optin, optionalOut } = field;
  const parsed = field.value.parse(undefined);
  const value = (parsed === INVALID ? undefined : copierOf(parsed, 0)) ?? (() => field.value.parse(undefined));
  let absentOutcome: Outcome;
  let presentOutcome: Outcome;
  if (parsed === INVALID) {
    absentOutcome = optin !== undefined && optionalOut ? NOTHING : REFUSE;
    presentOutcome = REFUSE;
  } else {
    const written = parsed !== undefined ? WRITE : WRITE_UNDEFINED;
    presentOutcome = written;
    if (optionalOut && optin === "optional") absentOutcome = NOTHING;
    else if (optin === undefined) absentOutcome = REFUSE;
    else absentOutcome = parsed !== undefined || (optin === "defaulted" && !optionalOut) ? written : NOTHING;
  }
  field.fill = { absent: absentOutcome, present: presentOutcome, value };
  return field.fill;
}

/** Plain data this deep at most is copied (a default's tree is a few levels). */
const MAX_COPY_DEPTH = 8;

/**
 * A function returning a new copy of `value` (a primitive as itself), or undefined when `value`
 * is not plain data: objects whose prototype is `Object.prototype` with only enumerable, writable,
 * configurable string-keyed data properties, and arrays of such values. A level is copied with one
 * spread (a single operation in the interpreter), its object and array values then replaced by copies.
 */
function copierOf(value: unknown, depth: number): (() => unknown) | undefined {
  if (typeof value !== "object" || value === null) return typeof value === "function" ? undefined : () => value;
  if (depth > MAX_COPY_DEPTH || !Object.isExtensible(value)) return undefined;
  const array = Array.isArray(value);
  if (Object.getPrototypeOf(value) !== (array ? Array.prototype : Object.prototype)) return undefined;
  const keys = Reflect.ownKeys(value);
  const nested: { key: string; copy: () => unknown }[] = [];
  for (const key of keys) {
    if (typeof key !== "string") return undefined;
    if (array && key === "length") continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!("value" in descriptor) || !descriptor.enumerable || !descriptor.writable || !descriptor.configurable) return undefined;
    const inner = descriptor.value as unknown;
    if (typeof inner === "function") return undefined;
    if (typeof inner !== "object" || inner === null) continue;
    const copy = copierOf(inner, depth + 1);
    if (copy === undefined) return undefined;
    nested.push({ key, copy });
  }
  if (array) {
    const items = value as unknown[];
    // A sparse array is left to the parser.
    if (Object.keys(items).length !== items.length) return undefined;
    return () => {
      const out = items.slice();
      for (let i = 0; i < nested.length; i++) out[Number(nested[i]!.key)] = nested[i]!.copy();
      return out;
    };
  }
  const object = value as Record<string, unknown>;
  if (nested.length === 0) return () => ({ ...object });
  return () => {
    const out = { ...object };
    for (let i = 0; i < nested.length; i++) out[nested[i]!.key] = nested[i]!.copy();
    return out;
  };
}
