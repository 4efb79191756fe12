/** Argument dispatch of the binary: protocol modes, --version, --help, or a human command. */
import { type EngineRuntime, LIBRARY_RUNTIME, ONE_RENDER_RUNTIME } from "../engine/runtime.js";
import { PROTOCOL_VERSION } from "../protocol/constants.js";
import { EXIT, type ExitCode } from "../protocol/errors.js";
import { defaultReadFile, runCommand } from "./commands.js";
import type { EnginePort } from "./engine-port.js";
import { createHandler } from "./handler.js";
import { runOneShot, runServe } from "./loops.js";
import { Output } from "./output.js";
import { TemplateStore } from "./template-store.js";

export interface MainIO {
  /** The engine made with the runtime choices of the mode the arguments ask for (src/engine/runtime.ts). */
  readonly createEngine: (runtime: EngineRuntime) => EnginePort;
  readonly stdin: AsyncIterable<Buffer>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export const USAGE = `mailrender-engine: render mailrender templates (html, react-email, mjml)

Protocol (for programs; see spec/README.md):
  mailrender-engine            read one JSON request on stdin, write one JSON envelope on stdout
  mailrender-engine --serve    newline-delimited requests in, one response line each out, until stdin closes

Human commands:
  mailrender-engine render --template t.json --target html|react-email|mjml [--data d.json] [--out file] [--no-minify] [--strict] [--plain-text]
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

export async function runMain(argv: readonly string[], io: MainIO): Promise<ExitCode> {
  const [first, ...rest] = argv;
  // Only a --serve process renders more than once: caches pay off there.
  const engine = io.createEngine(first === "--serve" ? LIBRARY_RUNTIME : ONE_RENDER_RUNTIME);
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
        readFile: defaultReadFile,
      });
    default:
      return usageError(io, `unknown argument ${JSON.stringify(first)}`);
  }
}

function usageError(io: MainIO, message: string): ExitCode {
  io.stderr.write(`mailrender-engine: ${message}\n\n${USAGE}`);
  return EXIT.BAD_REQUEST;
}

function reportBug(stderr: NodeJS.WritableStream, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  stderr.write(`mailrender-engine: internal error (please report): ${detail}\n`);
}
