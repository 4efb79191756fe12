/**
 * The human CLI on the same binary: `render`, `validate`, `inspect` read files instead of a
 * protocol request. Results go to stdout (or --out); diagnostics go to stderr as text.
 */
import { RenderError } from "../base/diagnostics.js";
import { RENDER_TARGETS, type RenderOptions, type RenderTarget } from "../base/types.js";
import { ClientChecksUnavailable, checkFamilies } from "../engine/client-support.js";
import type { ValidationResult } from "../engine/validate.js";
import { decodeRequest } from "../protocol/decode.js";
import { EXIT, type ExitCode, type Issue, ProtocolError } from "../protocol/errors.js";
import { wellFormedData } from "../protocol/read-request.js";
import { dynamicDataSchema, toDynamicData } from "../protocol/schema.js";
import { componentOptionConflicts } from "../targets/component/options.js";
import { type Options, parseArgs, type Values } from "./args.js";
import type { EnginePort } from "./engine-port.js";
import type { Files } from "./io.js";
import { REPORT_FORMATS, sarifReport, textReport } from "./validate-report.js";

export interface CommandIO {
  readonly engine: EnginePort;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly files: Files;
}

/** A usage or input problem: reported as text and exit 2, never as a stack trace. */
export class UsageError extends Error {}

export async function runCommand(name: string, argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  try {
    switch (name) {
      case "render":
        return await renderCommand(argv, io);
      case "validate":
        return validateCommand(argv, io);
      case "inspect":
        return inspectCommand(argv, io);
      default:
        throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    }
  } catch (error) {
    if (error instanceof RenderError) {
      io.stderr(`error: ${error.message}\n${formatIssues(error.issues)}`);
      return EXIT.RENDER_FAILED;
    }
    if (error instanceof UsageError || error instanceof ProtocolError) {
      io.stderr(`error: ${error.message}\n${error instanceof ProtocolError ? formatIssues(error.issues) : ""}Run with --help for usage.\n`);
      return EXIT.BAD_REQUEST;
    }
    throw error;
  }
}

/** The render options as this command names them, for a component's conflicts. */
const CLI_NAMES = { self: "--component-props", target: ["--target"], dynamicData: ["--data"], strict: ["--strict"], plainText: ["--plain-text"] } as const;

async function renderCommand(argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  const { values } = parse(argv, {
    template: { type: "string" },
    data: { type: "string" },
    target: { type: "string" },
    out: { type: "string" },
    "no-minify": { type: "boolean" },
    strict: { type: "boolean" },
    "plain-text": { type: "boolean" },
    "component-props": { type: "boolean" },
  });
  const target = values.target;
  if (!isTarget(target)) throw new UsageError(`--target must be one of ${RENDER_TARGETS.join(", ")}`);
  const template = readJson(requireOption(values.template, "--template"), io);
  const data = values.data === undefined ? undefined : readDynamicData(values.data, io);
  const options: RenderOptions = {
    target,
    dynamicData: data,
    minify: values["no-minify"] !== true,
    strict: values.strict === true,
    plainText: values["plain-text"] === true,
    componentProps: values["component-props"] === true,
  };
  if (options.componentProps) {
    const conflicts = componentOptionConflicts(options, CLI_NAMES);
    if (conflicts.length > 0) throw new UsageError(conflicts.map((issue) => issue.msg).join("; "));
  }
  const result = await io.engine.render(template, options);
  for (const w of result.warnings) io.stderr(`warning ${w.code}${w.path.length ? ` at ${w.path.join(".")}` : ""}: ${w.message}\n`);
  // --plain-text: the plain-text version instead of the output.
  const written = values["plain-text"] === true ? (result.text ?? "") : result.output;
  if (values.out === undefined) io.stdout(written);
  else io.files.write(values.out, written);
  return EXIT.OK;
}

/**
 * The template checks (spec/checks.md): a text report by default, the result as JSON, or SARIF.
 * Exit 0 when the template passes, 1 when it cannot be rendered or a finding is an error (with
 * --strict, also a warning).
 */
function validateCommand(argv: readonly string[], io: CommandIO): ExitCode {
  const { values } = parse(argv, {
    template: { type: "string" },
    data: { type: "string" },
    target: { type: "string", multiple: true },
    strict: { type: "boolean" },
    format: { type: "string" },
    clients: { type: "string", multiple: true },
  });
  const format = values.format ?? "text";
  const clients = values.clients?.flatMap((list) => list.split(",").map((family) => family.trim()));
  if (clients !== undefined) {
    try {
      checkFamilies(clients);
    } catch (error) {
      throw new UsageError(`--clients: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(", ")}`);
  const targets = values.target ?? [...RENDER_TARGETS];
  for (const target of targets) if (!isTarget(target)) throw new UsageError(`--target must be one of ${RENDER_TARGETS.join(", ")}`);
  const file = requireOption(values.template, "--template");
  const { json, text } = readJsonFile(file, io);
  const strict = values.strict === true;
  const dynamicData = values.data === undefined ? undefined : readDynamicData(values.data, io);
  let result: ValidationResult;
  try {
    result = io.engine.validate(json, { strict, targets: targets as RenderTarget[], dynamicData, clients });
  } catch (error) {
    if (error instanceof ClientChecksUnavailable) throw new UsageError(`--clients: ${error.message}`);
    throw error;
  }
  const name = file === "-" ? "(stdin)" : file;
  if (format === "text") io.stdout(textReport(name, text, result, strict));
  else io.stdout(`${JSON.stringify(format === "json" ? result : sarifReport(name, text, result), null, 2)}\n`);
  return result.passed ? EXIT.OK : EXIT.RENDER_FAILED;
}

function inspectCommand(argv: readonly string[], io: CommandIO): ExitCode {
  const { values } = parse(argv, { template: { type: "string" } });
  const template = readJson(requireOption(values.template, "--template"), io);
  io.stdout(`${JSON.stringify(io.engine.inspect(template), null, 2)}\n`);
  return EXIT.OK;
}

/** Dynamic data from a file, with the fix for the common mistake: a value straight under merge_tags. */
function readDynamicData(path: string, io: CommandIO) {
  const raw = readJson(path, io);
  const read = wellFormedData(raw);
  if (read !== undefined) return toDynamicData(read);
  const data = dynamicDataSchema().safeParse(raw);
  if (data.success) return toDynamicData(data.data);
  const issue = data.error.issues[0];
  const key = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const misplaced = key !== undefined && issue?.path.join(".") === "merge_tags" ? ` (put ${key} under merge_tags.text, .url or .attr)` : "";
  throw new UsageError(
    `--data is not dynamic data ({"merge_tags": {"text": {...}, "url": {...}, "attr": {...}}, "context": {...}}): ${issue?.message ?? ""}${misplaced}`,
  );
}

function parse<O extends Options>(argv: readonly string[], options: O): { values: Values<O> } {
  try {
    return { values: parseArgs(argv, options) };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function requireOption(value: string | undefined, name: string): string {
  if (value === undefined) throw new UsageError(`${name} is required`);
  return value;
}

function readJson(path: string, io: CommandIO): unknown {
  return readJsonFile(path, io).json;
}

/** A JSON file's value and its text (the validate command locates findings in it). */
function readJsonFile(path: string, io: CommandIO): { json: unknown; text: string } {
  let bytes: Uint8Array;
  try {
    bytes = io.files.read(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const text = io.engine.host.decodeUtf8(bytes);
    return { json: decodeRequest(bytes, io.engine.host), text };
  } catch (error) {
    if (error instanceof ProtocolError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
}

function isTarget(value: unknown): value is RenderTarget {
  return (RENDER_TARGETS as readonly unknown[]).includes(value);
}

function formatIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `  ${i.loc.join(".") || "(root)"}: ${i.msg} [${i.type}]\n`).join("");
}
