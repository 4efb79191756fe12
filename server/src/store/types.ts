import type { KeyRole } from "../roles.js";
import type { KeyTarget } from "../targets.js";

/** An API key's public record; the secret itself is never stored, only its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  role: KeyRole;
  targets: KeyTarget[];
  /** Display prefix of the current secret (first 12 characters). */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** One valid secret of a key; after a rotation with grace the old secret lives on until `expiresAt`. */
export interface KeySecretRecord {
  hash: string;
  keyId: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface TemplateMeta {
  id: string;
  name: string;
  version: number;
  etag: string;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateRecord extends TemplateMeta {
  /** The template JSON as stored, already serialised (served as-is by the SDK endpoint). */
  body: string;
}

export interface NewKey {
  id: string;
  name: string;
  role: KeyRole;
  targets: KeyTarget[];
  createdAt: string;
  expiresAt: string | null;
  secret: { hash: string; prefix: string };
}

export interface Page {
  limit: number;
  offset: number;
}

/** The storage interface; SQLite and PostgreSQL implement it with the same Kysely queries. */
export interface Store {
  readonly dialect: "sqlite" | "postgres";
  /** Brings the schema up to date; returns the names of the migrations it applied. */
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;

  createKey(key: NewKey): Promise<ApiKeyRecord>;
  findKeyBySecretHash(hash: string): Promise<{ key: ApiKeyRecord; secret: KeySecretRecord } | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(page: Page): Promise<ApiKeyRecord[]>;
  /**
   * Revokes a key (the first revocation time is kept). `"last-admin"`: refused, it is the last active
   * admin key (an admin key neither revoked nor expired at `at`), and nothing changed.
   */
  revokeKey(id: string, at: string): Promise<ApiKeyRecord | "last-admin" | undefined>;
  /** Renames a key or changes its role; `"last-admin"` as for `revokeKey` when the role would leave no active admin key. */
  updateKey(id: string, change: { name?: string | undefined; role?: KeyRole | undefined }, at: string): Promise<ApiKeyRecord | "last-admin" | undefined>;
  /** Adds a new secret; older secrets end at `oldSecretsEndAt` (null = at once). */
  rotateKey(id: string, secret: { hash: string; prefix: string }, now: string, oldSecretsEndAt: string | null): Promise<ApiKeyRecord | undefined>;

  createTemplate(template: TemplateRecord): Promise<TemplateRecord>;
  /**
   * Replaces a template's body (new version, new ETag). With `ifMatch` (the ETags the writer read), only
   * if its ETag is one of them: `"etag-mismatch"` when it changed in between.
   */
  replaceTemplate(
    id: string,
    next: { name: string; body: string; etagFor: (version: number) => string; updatedAt: string; ifMatch?: readonly string[] | undefined },
  ): Promise<TemplateRecord | "etag-mismatch" | undefined>;
  getTemplate(id: string): Promise<TemplateRecord | undefined>;
  listTemplates(page: Page): Promise<TemplateMeta[]>;
  deleteTemplate(id: string): Promise<boolean>;

  /** The studio's sample dynamic data (JSON text) for a template, if any was saved. */
  getTemplateSample(templateId: string): Promise<string | undefined>;
  /** Saves it; false when the template does not exist. */
  putTemplateSample(templateId: string, dynamicData: string, at: string): Promise<boolean>;
}

/** The database could not be reached or used; answered with 503 and no details. */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}
