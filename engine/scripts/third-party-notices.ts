/**
 * THIRD_PARTY_NOTICES for the release binaries: every npm package the engine bundle contains (from
 * esbuild's metafile, with its licence text), QuickJS-ng, and the C libraries linked statically
 * into some platforms' binaries (musl and mimalloc on Linux, mingw-w64's runtime on Windows); and
 * for the npm library, the packages its bundle contains and the C library of its WebAssembly module.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface Notice {
  readonly name: string;
  readonly where: string;
  readonly licence: string;
  readonly text: string;
}

function packageNotices(metafileInputs: readonly string[], root: string, where: string): Notice[] {
  const dirs = new Set<string>();
  for (const input of metafileInputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1] !== undefined) dirs.add(match[1]);
  }
  const notices = [...dirs].sort().map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { name: string; version: string; license?: string };
    const file = readdirSync(join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(f));
    if (file === undefined) throw new Error(`${manifest.name} has no licence file: add its notice by hand before shipping`);
    return {
      name: `${manifest.name} ${manifest.version}`,
      where,
      licence: manifest.license ?? "see text",
      text: readFileSync(join(root, dir, file), "utf8"),
    };
  });
  // A version installed in two places (nested under a package and hoisted) is one notice.
  return notices.filter((notice, i) => notices.findIndex((other) => other.name === notice.name) === i);
}

/** "2.3.1" from mimalloc.h's MI_MALLOC_VERSION (20301). */
function mimallocVersion(source: string): string {
  const version = Number(/#define MI_MALLOC_VERSION (\d+)/.exec(readFileSync(join(source, "include", "mimalloc.h"), "utf8"))?.[1] ?? Number.NaN);
  return Number.isNaN(version) ? "?" : `${Math.floor(version / 10000)}.${Math.floor(version / 100) % 100}.${version % 100}`;
}

export function thirdPartyNotices(
  metafileInputs: readonly string[],
  root: string,
  quickjsSource: string,
  quickjsVersion: string,
  mimallocSource: string,
  zigLib: string | undefined,
): string {
  const notices: Notice[] = [
    {
      name: `QuickJS-ng ${quickjsVersion}`,
      where: "all platforms (the JavaScript engine)",
      licence: "MIT",
      text: readFileSync(join(quickjsSource, "LICENSE"), "utf8"),
    },
    ...packageNotices(metafileInputs, root, "all platforms (JavaScript bundle)"),
  ];
  const libc = (name: string, where: string, licence: string, path: string): void => {
    if (zigLib !== undefined && existsSync(join(zigLib, path))) notices.push({ name, where, licence, text: readFileSync(join(zigLib, path), "utf8") });
  };
  libc("musl libc", "linux-x64, linux-arm64 (statically linked)", "MIT", "libc/musl/COPYRIGHT");
  notices.push({
    name: `mimalloc ${mimallocVersion(mimallocSource)}`,
    where: "linux-x64, linux-arm64 (statically linked, the memory allocator)",
    licence: "MIT",
    text: readFileSync(join(mimallocSource, "LICENSE"), "utf8"),
  });
  libc("mingw-w64 runtime", "win32-x64 (statically linked start-up code)", "ZPL-2.1 and others", "libc/mingw/COPYING");
  return noticesText("the mailrender-engine executable", "The executable bundles", notices);
}

/**
 * THIRD_PARTY_NOTICES for the npm library (scripts/build-lib.ts): the packages its lib/index.js
 * contains, and wasi-libc as zig ships it (`zigLib`), which the WebAssembly module of the html
 * clean-up and minifier links (its malloc and string functions: scripts/build-wasm.ts).
 */
export function bundledPackageNotices(metafileInputs: readonly string[], root: string, zigLib: string): string {
  const wasiLibc = ["LICENSE", "LICENSE-MIT", "libc-top-half/musl/COPYRIGHT"].map((file) => readFileSync(join(zigLib, "libc", "wasi", file), "utf8").trim());
  const notices: Notice[] = [
    ...packageNotices(metafileInputs, root, "lib/index.js"),
    {
      name: "wasi-libc (as zig ships it)",
      where: "lib/index.js (statically linked into the WebAssembly module of the html clean-up and minifier)",
      licence: "MIT (of its licences), with parts under their own, named in the text",
      text: wasiLibc.join("\n\n"),
    },
  ];
  return noticesText("@mailrender/engine", "Its lib/index.js bundles", notices);
}

function noticesText(product: string, bundles: string, notices: readonly Notice[]): string {
  const rule = "-".repeat(80);
  const body = notices.map((n) => `${rule}\n${n.name}\nUsed in: ${n.where}\nLicence: ${n.licence}\n\n${n.text.trim()}\n`).join("\n");
  return `THIRD-PARTY NOTICES for ${product}\n\n${bundles} the software below; each is used under the licence that follows it.\nThe mailrender code itself, including its port of mjml, is under LICENSE.\n\n${body}`;
}
