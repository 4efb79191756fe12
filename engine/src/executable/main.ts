/** Argument dispatch of the binary: protocol modes, --version, --help, or a human command. */
import { type CachePolicy, MANY_RENDERS, ONE_RENDER } from "../engine/caches.js";
import { PROTOCOL_VERSION } from "../protocol/constants.js";
import { EXIT, type ExitCode } from "../protocol/errors.js";
import { runCommand } from "./commands.js";
import type { EnginePort } from "./engine-port.js";
import { createHandler } from "./handler.js";
import type { Files, Sink } from "./io.js";
import { runOneShot, runServe } from "./loops.js";
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
}

export const USAGE = `mailrender-engine: render mailrender templates (html, react-email, mjml)

Protocol (for programs; see spec/README.md):
  mailrender-engine            read one JSON request on stdin, write one JSON envelope on stdout
  mailrender-engine --serve    newline-delimited requests in, one response line each out, until stdin closes

Human commands:
  mailrender-engine render --template t.json --target html|react-email|mjml [--data d.json] [--out file] [--no-minify] [--strict] [--plain-text]
  mailrender-engine validate --template t.json     print the validation report (exit 1 if invalid)
  mailrender-engine inspect --template t.json      print the merge tags and context keys the template reads
  (a file of "-" is read from stdin)

  --version    print the engine and protocol versions
  --help       print this text

Exit codes: 0 rendered, 1 render or validation error, 2 bad request, bad usage or closed stdout.
`;

export async function runMain(argv: readonly string[], io: MainIO): Promise<ExitCode> {
  const [first, ...rest] = argv;
  // Only a --serve process renders more than once: caches pay off there.
  const engine = io.createEngine(first === "--serve" ? MANY_RENDERS : ONE_RENDER);
  const handler = () => createHandler({ engine, store: new TemplateStore(), reportBug: (e) => reportBug(io.stderr, e) });
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

function usageError(io: MainIO, message: string): ExitCode {
  io.stderr.write(`mailrender-engine: ${message}\n\n${USAGE}`);
  return EXIT.BAD_REQUEST;
}

function reportBug(stderr: Sink, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`mailrender-engine: internal error (please report): ${detail}\n`);
}
