/** The part of QuickJS-ng's `qjs:std` module the engine host uses. */
declare module "qjs:std" {
  export interface FILE {
    read(buffer: ArrayBuffer, position: number, length: number): number;
    write(buffer: ArrayBuffer, position: number, length: number): number;
    puts(text: string): void;
    getline(): string | null;
    flush(): void;
    close(): number;
    error(): boolean;
  }
  const stdin: FILE;

  export { stdin as in };
  export const out: FILE;
  export const err: FILE;
  export function open(path: string, mode: string, error?: { errno?: number }): FILE | null;
  export function strerror(errno: number): string;
  export function exit(code: number): never;
}

/** The part of QuickJS-ng's `qjs:os` module the engine host uses. */
declare module "qjs:os" {
  export const platform: "linux" | "darwin" | "win32" | "js" | string;
  export function read(fd: number, buffer: ArrayBuffer, offset: number, length: number): number;
  export function write(fd: number, buffer: ArrayBuffer, offset: number, length: number): number;
  export function signal(signal: number, handler: (() => void) | null | undefined): void;
}
