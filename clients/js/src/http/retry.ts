/**
 * Retries for the template fetch only (rendering is local and never retried). Transient failures are
 * retried: no connection, 429 and 5xx. A 4xx is an answer and is never retried; a timeout is not
 * retried either, so one render waits at most about `timeout` for a silent server, not three times it.
 */
import { MAX_RETRIES, MAX_RETRY_AFTER_MS, RETRY_BASE_DELAY_MS } from "../constants.js";
import type { MailrenderError } from "../errors.js";

export type Attempt<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: MailrenderError; readonly retryAfterMs: number | undefined };

export interface RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxRetryAfterMs: number;
  /** Injectable for tests of the schedule; defaults to a real timer and Math.random. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: MAX_RETRIES,
  baseDelayMs: RETRY_BASE_DELAY_MS,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

export function isRetryable(error: MailrenderError): boolean {
  return error.code === "NETWORK_ERROR" || error.status === 429 || error.status >= 500;
}

/** Retry-After as delta-seconds or an HTTP-date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date starts with the day's name; Date.parse would also read "1.5" or "-5" as dates.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Jittered exponential backoff: BASE * 2^n scaled into [0.5, 1) so clients that failed together spread out. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy): number {
  return Math.round(policy.baseDelayMs * 2 ** retryIndex * (0.5 + policy.random() / 2));
}

/** Milliseconds to wait before retry `retryIndex` (0-based), or undefined to stop and report `error`. */
export function retryDelay(
  error: MailrenderError,
  retryAfterMs: number | undefined,
  retryIndex: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number | undefined {
  if (retryIndex >= policy.retries || !isRetryable(error)) return undefined;
  // The server's Retry-After wins over our schedule; one longer than we are willing to wait ends the tries.
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxRetryAfterMs ? undefined : retryAfterMs;
  return backoffDelay(retryIndex, policy);
}

export async function withRetries<T>(attempt: () => Promise<Attempt<T>>, policy: RetryPolicy = DEFAULT_RETRY_POLICY): Promise<T> {
  for (let retry = 0; ; retry++) {
    const result = await attempt();
    if (result.ok) return result.value;
    const delay = retryDelay(result.error, result.retryAfterMs, retry, policy);
    if (delay === undefined) throw result.error;
    await policy.sleep(delay);
  }
}
