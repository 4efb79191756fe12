/** Argument dispatch of the binary: protocol modes, --version, --help, or a human command. */
import { type CachePolicy, MANY_RENDERS, ONE_RENDER } from "../engine/caches.js";
import { PROTOCOL_VERSION } from "../protocol/constants.js";
import { EXIT, type ExitCode } from "../protocol/errors.js";
import { runCommand } from "./commands.js";
import type { EnginePort } from "./engine-port.js";
import { createHandler } from "./handler.js";
import type { Files, Sink } from "./io.js";
import { runOneShot, runServe } from "./loops.js";
import { type HostMemory, MemoryPolicy } from "./memory.js";
import { Output } from "./output.js";
import { TemplateStore } from "./template-store.js";

/** What the entry gives the executable (src/cli.ts on Node, engine/runtimes/quickjs/host.ts on QuickJS). */
export interface MainIO {
  /** An engine with the cache policy of the mode the arguments ask for (src/engine/caches.ts). */
  readonly createEngine: (cache: CachePolicy) => EnginePort;
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: Sink;
  readonly stderr: Sink;
  readonly files: Files;
  /** What the host can do about its memory (memory.ts); without it, nothing is released and no ceiling holds. */
  readonly memory?: HostMemory;
}

export const USAGE = `mailrender-engine: render mailrender templates (html, react-email, mjml)

Protocol (for programs; see spec/README.md):
  mailrender-engine            read one JSON request on stdin, write one JSON envelope on stdout
  mailrender-engine --serve    newline-delimited requests in, one response line each out, until stdin closes
  --max-memory <MiB>           with either: answer output_too_large rather than grow past this memory

Human commands:
  mailrender-engine render --template t.json --target html|react-email|mjml [--data d.json] [--out file] [--no-minify] [--strict] [--plain-text]
                             [--component-props]
                               --component-props (react-email): a component taking the recipient's merge tags
                               and context as props, instead of one recipient's email (no --data, --strict, --plain-text)
  mailrender-engine validate --template t.json [--data d.json] [--target T]... [--strict] [--format text|json|sarif]
                             [--clients gmail,outlook,...]
                               check the template (spec/checks.md): exit 1 if it cannot be rendered or a
                               finding is an error (--strict: or a warning); --data is sample data, --target
                               the targets whose size is checked (default all three), --clients the mail-client
                               families whose support to check (needs Node.js and doiuse-email)
  mailrender-engine inspect --template t.json      print the merge tags and context keys the template reads
  (a file of "-" is read from stdin)

  --version    print the engine and protocol versions
  --help       print this text

Exit codes: 0 rendered (or the checks passed), 1 render error or the checks failed, 2 bad request, bad usage
or closed stdout.
`;

export async function runMain(args: readonly string[], io: MainIO): Promise<ExitCode> {
  const option = maxMemoryOption(args);
  if (typeof option === "string") return usageError(io, option);
  const { ceiling, argv } = option;
  const [first, ...rest] = argv;
  if (ceiling !== undefined && first !== undefined && first !== "--serve") return usageError(io, "--max-memory applies to the protocol modes only");
  // Only a --serve process renders more than once: caches pay off there.
  const engine = io.createEngine(first === "--serve" ? MANY_RENDERS : ONE_RENDER);
  const handler = () => {
    const store = new TemplateStore();
    const memory = new MemoryPolicy(io.memory, ceiling, () => {
      store.clear();
      engine.clearCaches();
    });
    return createHandler({ engine, store, memory, reportBug: (e) => reportBug(io.stderr, e) });
  };
  const output = new Output(io.stdout);
  const loop = async (run: typeof runOneShot): Promise<ExitCode> => {
    const code = await run({ handler: handler(), engineVersion: engine.version, input: io.stdin, output });
    if (output.closed) io.stderr.write("mailrender-engine: stdout was closed before the response could be written\n");
    return code;
  };
  switch (first) {
    case undefined:
      return loop(runOneShot);
    case "--serve":
      if (rest.length > 0) return usageError(io, `--serve takes no arguments`);
      return loop(runServe);
    case "--version":
    case "-v":
      io.stdout.write(`mailrender-engine ${engine.version} (protocol ${PROTOCOL_VERSION})\n`);
      return EXIT.OK;
    case "--help":
    case "-h":
    case "help":
      io.stdout.write(USAGE);
      return EXIT.OK;
    case "render":
    case "validate":
    case "inspect":
      return runCommand(first, rest, {
        engine,
        stdout: (text) => io.stdout.write(text),
        stderr: (text) => io.stderr.write(text),
        files: io.files,
      });
    default:
      return usageError(io, `unknown argument ${JSON.stringify(first)}`);
  }
}

/** `--max-memory <MiB>` taken out of the arguments, in bytes; a message when it is malformed. */
function maxMemoryOption(args: readonly string[]): { ceiling: number | undefined; argv: readonly string[] } | string {
  const at = args.indexOf("--max-memory");
  if (at === -1) return { ceiling: undefined, argv: args };
  const value = args[at + 1] ?? "";
  if (!/^[1-9]\d*$/.test(value) || Number(value) < 32) return `--max-memory takes a whole number of MiB, at least 32 (got ${JSON.stringify(value)})`;
  return { ceiling: Number(value) * 1024 * 1024, argv: [...args.slice(0, at), ...args.slice(at + 2)] };
}

function usageError(io: MainIO, message: string): ExitCode {
  io.stderr.write(`mailrender-engine: ${message}\n\n${USAGE}`);
  return EXIT.BAD_REQUEST;
}

function reportBug(stderr: Sink, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`mailrender-engine: internal error (please report): ${detail}\n`);
}
