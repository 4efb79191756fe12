/** This server's API with the API key of this browser tab (sessionStorage: gone when the tab closes). */
const KEY_ITEM = "mailrender.apiKey";

/** The signed-in key, from `GET /api/v1/me`: the studio shows only what its permissions allow. */
export interface Me {
  id: string;
  name: string;
  role: string;
  permissions: string[];
}

export interface Issue {
  loc: string[];
  msg: string;
  type: string;
  /** How to fix a common mistake (spec/errors.md), when the service knows one. */
  hint?: string;
}

/** An error answer of the API: its status, code, message and issues. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[],
  ) {
    super(message);
  }
}

export function readKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function saveKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, key = readKey(), extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== null) headers["authorization"] = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const json: unknown = text !== "" && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const error = (json ?? {}) as { code?: string; message?: string; issues?: Issue[] };
    if (res.status === 401) {
      // A revoked or mistyped key: back to the sign-in form.
      if (key !== null && readKey() === key) {
        clearKey();
        location.reload();
      }
    }
    throw new ApiFailure(res.status, error.code ?? "HTTP_ERROR", error.message ?? `${res.status} ${res.statusText}`, error.issues ?? []);
  }
  return json as T;
}
