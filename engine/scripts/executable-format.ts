/**
 * What an executable is, read from its header: the file format (ELF, Mach-O, PE) and the CPU it is
 * for, named as Node names platforms (`linux-arm64`, `darwin-x64`, `win32-x64`, …). Used to check
 * release binaries that cannot run here, and by the package builders, which refuse to put a binary
 * in a package tagged for another platform.
 */
import { closeSync, openSync, readSync } from "node:fs";

export interface ExecutableFormat {
  readonly format: "ELF" | "Mach-O" | "PE";
  readonly arch: "x64" | "arm64" | "other";
  /** The Node-style platform id this binary runs on, e.g. `linux-x64`. */
  readonly platform: string;
}

const ELF_MACHINES: Record<number, ExecutableFormat["arch"]> = { 62: "x64", 183: "arm64" };
const MACHO_CPUS: Record<number, ExecutableFormat["arch"]> = { 16777223: "x64", 16777228: "arm64" };
const PE_MACHINES: Record<number, ExecutableFormat["arch"]> = { 34404: "x64", 43620: "arm64" };

export function readExecutableFormat(path: string): ExecutableFormat {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(4096);
    const size = readSync(fd, head, 0, head.length, 0);
    return parseHeader(head.subarray(0, size), path);
  } finally {
    closeSync(fd);
  }
}

export function parseHeader(head: Buffer, name = "file"): ExecutableFormat {
  if (head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46) {
    if (head[4] !== 2 || head[5] !== 1) throw new Error(`${name}: an ELF file, but not 64-bit little-endian`);
    const arch = ELF_MACHINES[head.readUInt16LE(18)] ?? "other";
    return { format: "ELF", arch, platform: `linux-${arch}` };
  }
  if (head.length >= 8 && head.readUInt32LE(0) === 0xfeedfacf) {
    const arch = MACHO_CPUS[head.readUInt32LE(4)] ?? "other";
    return { format: "Mach-O", arch, platform: `darwin-${arch}` };
  }
  if (head.length >= 0x40 && head.toString("latin1", 0, 2) === "MZ") {
    const pe = head.readUInt32LE(0x3c);
    if (pe + 6 > head.length || head.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error(`${name}: an MZ file without a PE header`);
    const arch = PE_MACHINES[head.readUInt16LE(pe + 4)] ?? "other";
    return { format: "PE", arch, platform: `win32-${arch}` };
  }
  throw new Error(`${name}: not an ELF, Mach-O (64-bit) or PE executable`);
}
