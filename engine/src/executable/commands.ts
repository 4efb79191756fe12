/**
 * The human CLI on the same binary: `render`, `validate`, `inspect` read files instead of a
 * protocol request. Results go to stdout (or --out); diagnostics go to stderr as text.
 */
import { RenderError } from "../base/diagnostics.js";
import { RENDER_TARGETS, type RenderTarget } from "../base/types.js";
import { decodeRequest } from "../protocol/decode.js";
import { EXIT, type ExitCode, type Issue, ProtocolError } from "../protocol/errors.js";
import { dynamicDataSchema, toDynamicData } from "../protocol/schema.js";
import { type Options, parseArgs, type Values } from "./args.js";
import type { EnginePort } from "./engine-port.js";
import type { Files } from "./io.js";

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
        return checkCommand(argv, io, "validate");
      case "inspect":
        return checkCommand(argv, io, "inspect");
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

async function renderCommand(argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  const { values } = parse(argv, {
    template: { type: "string" },
    data: { type: "string" },
    target: { type: "string" },
    out: { type: "string" },
    "no-minify": { type: "boolean" },
    strict: { type: "boolean" },
    "plain-text": { type: "boolean" },
  });
  const target = values.target;
  if (!isTarget(target)) throw new UsageError(`--target must be one of ${RENDER_TARGETS.join(", ")}`);
  const template = readJson(requireOption(values.template, "--template"), io);
  const data = values.data === undefined ? undefined : dynamicDataSchema.safeParse(readJson(values.data, io));
  if (data !== undefined && !data.success) {
    throw new UsageError(`--data is not dynamic data ({"merge_tags": {...}, "context": {...}}): ${data.error.issues[0]?.message ?? ""}`);
  }
  const result = await io.engine.render(template, {
    target,
    dynamicData: data === undefined ? undefined : toDynamicData(data.data),
    minify: values["no-minify"] !== true,
    strict: values.strict === true,
    plainText: values["plain-text"] === true,
  });
  for (const w of result.warnings) io.stderr(`warning ${w.code}${w.path.length ? ` at ${w.path.join(".")}` : ""}: ${w.message}\n`);
  // --plain-text: the plain-text version instead of the output.
  const written = values["plain-text"] === true ? (result.text ?? "") : result.output;
  if (values.out === undefined) io.stdout(written);
  else io.files.write(values.out, written);
  return EXIT.OK;
}

function checkCommand(argv: readonly string[], io: CommandIO, kind: "validate" | "inspect"): ExitCode {
  const { values } = parse(argv, { template: { type: "string" } });
  const template = readJson(requireOption(values.template, "--template"), io);
  const report = kind === "validate" ? io.engine.validate(template) : io.engine.inspect(template);
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  const valid = kind === "inspect" || (report as { valid?: unknown }).valid === true;
  return valid ? EXIT.OK : EXIT.RENDER_FAILED;
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
  let bytes: Uint8Array;
  try {
    bytes = io.files.read(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return decodeRequest(bytes, io.engine.host.decodeUtf8);
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
