import { type Kysely, Migrator, type Selectable, sql } from "kysely";
import type { DatabaseConfig } from "../config.js";
import type { KeyRole } from "../roles.js";
import type { KeyTarget } from "../targets.js";
import { connect } from "./connect.js";
import { migrationProvider } from "./migrations.js";
import type { ApiKeySecretsTable, ApiKeysTable, Database, TemplatesTable } from "./schema.js";
import type { ApiKeyRecord, KeySecretRecord, NewKey, Page, Store, TemplateMeta, TemplateRecord } from "./types.js";
import { guard } from "./unavailable.js";

type KeyRow = Selectable<ApiKeysTable> & { prefix: string };

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role as KeyRole,
    targets: JSON.parse(row.targets) as KeyTarget[],
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

function toSecret(row: Selectable<ApiKeySecretsTable>): KeySecretRecord {
  return { hash: row.hash, keyId: row.key_id, prefix: row.prefix, createdAt: row.created_at, expiresAt: row.expires_at };
}

function toMeta(row: Omit<Selectable<TemplatesTable>, "body">): TemplateMeta {
  return { id: row.id, name: row.name, version: Number(row.version), etag: row.etag, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toTemplate(row: Selectable<TemplatesTable>): TemplateRecord {
  return { ...toMeta(row), body: row.body };
}

const META_COLUMNS = ["id", "name", "version", "etag", "created_at", "updated_at"] as const;

/** The single query layer: identical Kysely queries run on SQLite and on PostgreSQL. */
export class KyselyStore implements Store {
  private constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: "sqlite" | "postgres",
  ) {}

  static open(config: DatabaseConfig): KyselyStore {
    return new KyselyStore(connect(config), config.kind);
  }

  /** Applies the migrations this release has and the database lacks; returns their names. */
  async migrate(): Promise<string[]> {
    const { error, results } = await new Migrator({ db: this.db, provider: migrationProvider }).migrateToLatest();
    const failed = results?.find((r) => r.status === "Error");
    const newer = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message)?.[1] : undefined;
    if (newer !== undefined) {
      throw new Error(
        `the database was migrated by a newer release of mailrender (migration ${newer} is unknown to this one): run that release, or restore the backup taken before the upgrade`,
      );
    }
    if (error !== undefined || failed !== undefined) {
      throw new Error(`database migration ${failed?.migrationName ?? ""} failed`, { cause: error });
    }
    return (results ?? []).map((r) => r.migrationName);
  }

  ping(): Promise<void> {
    return guard(async () => {
      await sql`select 1`.execute(this.db);
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  /** The key row plus the display prefix of its newest secret. */
  private keyQuery(db: Kysely<Database> = this.db) {
    return db
      .selectFrom("api_keys")
      .selectAll("api_keys")
      .select((eb) =>
        eb
          .selectFrom("api_key_secrets")
          .select("api_key_secrets.prefix")
          .whereRef("api_key_secrets.key_id", "=", "api_keys.id")
          .orderBy("api_key_secrets.created_at", "desc")
          .orderBy("api_key_secrets.hash")
          .limit(1)
          .as("prefix"),
      );
  }

  private async readKey(db: Kysely<Database>, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.keyQuery(db).where("api_keys.id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toKey({ ...row, prefix: row.prefix ?? "" });
  }

  createKey(key: NewKey): Promise<ApiKeyRecord> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("api_keys")
          .values({
            id: key.id,
            name: key.name,
            role: key.role,
            targets: JSON.stringify(key.targets),
            created_at: key.createdAt,
            expires_at: key.expiresAt,
            revoked_at: null,
          })
          .execute();
        await trx
          .insertInto("api_key_secrets")
          .values({ hash: key.secret.hash, key_id: key.id, prefix: key.secret.prefix, created_at: key.createdAt, expires_at: null })
          .execute();
        return {
          id: key.id,
          name: key.name,
          role: key.role,
          targets: key.targets,
          prefix: key.secret.prefix,
          createdAt: key.createdAt,
          expiresAt: key.expiresAt,
          revokedAt: null,
        };
      }),
    );
  }

  findKeyBySecretHash(hash: string): Promise<{ key: ApiKeyRecord; secret: KeySecretRecord } | undefined> {
    return guard(async () => {
      const secret = await this.db.selectFrom("api_key_secrets").selectAll().where("hash", "=", hash).executeTakeFirst();
      if (secret === undefined) return undefined;
      const key = await this.readKey(this.db, secret.key_id);
      return key === undefined ? undefined : { key, secret: toSecret(secret) };
    });
  }

  getKey(id: string): Promise<ApiKeyRecord | undefined> {
    return guard(() => this.readKey(this.db, id));
  }

  listKeys(page: Page): Promise<ApiKeyRecord[]> {
    return guard(async () => {
      const rows = await this.keyQuery().orderBy("api_keys.id").limit(page.limit).offset(page.offset).execute();
      return rows.map((row) => toKey({ ...row, prefix: row.prefix ?? "" }));
    });
  }

  revokeKey(id: string, at: string): Promise<ApiKeyRecord | "last-admin" | undefined> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        const key = await this.keyLockedForChange(trx, id);
        if (key === undefined) return undefined;
        if (key.revoked_at === null && (await this.isLastActiveAdmin(trx, key, at))) return "last-admin";
        // Keep the first revocation time if revoked twice (revocation is idempotent).
        await trx.updateTable("api_keys").set({ revoked_at: at }).where("id", "=", id).where("revoked_at", "is", null).execute();
        return this.readKey(trx, id);
      }),
    );
  }

  updateKey(id: string, change: { name?: string | undefined; role?: KeyRole | undefined }, at: string): Promise<ApiKeyRecord | "last-admin" | undefined> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        const key = await this.keyLockedForChange(trx, id);
        if (key === undefined) return undefined;
        if (change.role !== undefined && change.role !== "admin" && (await this.isLastActiveAdmin(trx, key, at))) return "last-admin";
        await trx
          .updateTable("api_keys")
          .set({ ...(change.name !== undefined && { name: change.name }), ...(change.role !== undefined && { role: change.role }) })
          .where("id", "=", id)
          .execute();
        return this.readKey(trx, id);
      }),
    );
  }

  /**
   * The key's row, in a transaction that changes keys one at a time: SQLite's write transactions are
   * serial already (`BEGIN IMMEDIATE`); on PostgreSQL a lock that only key writers take, so that two
   * admins demoting each other at once cannot both see the other as the admin that remains.
   */
  private async keyLockedForChange(trx: Kysely<Database>, id: string) {
    if (this.dialect === "postgres") await sql`lock table api_keys in share row exclusive mode`.execute(trx);
    return trx.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Whether `key` is an active admin key (at `at`) and no other is. */
  private async isLastActiveAdmin(trx: Kysely<Database>, key: { id: string; role: string; revoked_at: string | null; expires_at: string | null }, at: string) {
    const active = (k: { revoked_at: string | null; expires_at: string | null }) => k.revoked_at === null && (k.expires_at === null || k.expires_at > at);
    if (key.role !== "admin" || !active(key)) return false;
    const other = await trx
      .selectFrom("api_keys")
      .select("id")
      .where("role", "=", "admin")
      .where("id", "<>", key.id)
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]))
      .limit(1)
      .executeTakeFirst();
    return other === undefined;
  }

  rotateKey(id: string, secret: { hash: string; prefix: string }, now: string, oldSecretsEndAt: string | null): Promise<ApiKeyRecord | undefined> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        const exists = await trx.selectFrom("api_keys").select("id").where("id", "=", id).executeTakeFirst();
        if (exists === undefined) return undefined;
        // Old secrets are ended, never deleted: a rotated-out secret stays known (401 "rotated"), so
        // it cannot come back as a new key, e.g. from MAILRENDER_ADMIN_KEY at the next start.
        // Shorten, never lengthen, the life of secrets already in a grace period.
        const endAt = oldSecretsEndAt ?? now;
        await trx
          .updateTable("api_key_secrets")
          .set({ expires_at: endAt })
          .where("key_id", "=", id)
          .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", endAt)]))
          .execute();
        await trx.insertInto("api_key_secrets").values({ hash: secret.hash, key_id: id, prefix: secret.prefix, created_at: now, expires_at: null }).execute();
        return this.readKey(trx, id);
      }),
    );
  }

  createTemplate(template: TemplateRecord): Promise<TemplateRecord> {
    return guard(async () => {
      await this.db
        .insertInto("templates")
        .values({
          id: template.id,
          name: template.name,
          body: template.body,
          version: template.version,
          etag: template.etag,
          created_at: template.createdAt,
          updated_at: template.updatedAt,
        })
        .execute();
      return template;
    });
  }

  replaceTemplate(
    id: string,
    next: { name: string; body: string; etagFor: (version: number) => string; updatedAt: string; ifMatch?: readonly string[] | undefined },
  ): Promise<TemplateRecord | "etag-mismatch" | undefined> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        // One statement bumps the version, so concurrent replaces queue on the row lock and each
        // gets the next version (last writer wins), instead of losing a read-then-write race. With
        // `ifMatch` the ETag is checked in the same statement: a writer that queued behind another
        // sees the ETag that one wrote.
        let update = trx
          .updateTable("templates")
          .set((eb) => ({ name: next.name, body: next.body, version: eb("version", "+", 1), updated_at: next.updatedAt }))
          .where("id", "=", id);
        if (next.ifMatch !== undefined) update = update.where("etag", "in", next.ifMatch.length > 0 ? [...next.ifMatch] : [""]);
        const bumped = await update.returning("version").executeTakeFirst();
        if (bumped === undefined) {
          if (next.ifMatch === undefined) return undefined;
          const exists = await trx.selectFrom("templates").select("id").where("id", "=", id).executeTakeFirst();
          return exists === undefined ? undefined : "etag-mismatch";
        }
        await trx
          .updateTable("templates")
          .set({ etag: next.etagFor(Number(bumped.version)) })
          .where("id", "=", id)
          .execute();
        const row = await trx.selectFrom("templates").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        return toTemplate(row);
      }),
    );
  }

  getTemplate(id: string): Promise<TemplateRecord | undefined> {
    return guard(async () => {
      const row = await this.db.selectFrom("templates").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? undefined : toTemplate(row);
    });
  }

  listTemplates(page: Page): Promise<TemplateMeta[]> {
    return guard(async () => {
      const rows = await this.db
        .selectFrom("templates")
        .select(META_COLUMNS)
        .orderBy("created_at")
        .orderBy("id")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toMeta);
    });
  }

  deleteTemplate(id: string): Promise<boolean> {
    return guard(async () => {
      const result = await this.db.deleteFrom("templates").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  getTemplateSample(templateId: string): Promise<string | undefined> {
    return guard(async () => {
      const row = await this.db.selectFrom("template_samples").select("dynamic_data").where("template_id", "=", templateId).executeTakeFirst();
      return row?.dynamic_data;
    });
  }

  putTemplateSample(templateId: string, dynamicData: string, at: string): Promise<boolean> {
    return guard(() =>
      this.db.transaction().execute(async (trx) => {
        const template = await trx.selectFrom("templates").select("id").where("id", "=", templateId).executeTakeFirst();
        if (template === undefined) return false;
        await trx
          .insertInto("template_samples")
          .values({ template_id: templateId, dynamic_data: dynamicData, updated_at: at })
          .onConflict((oc) => oc.column("template_id").doUpdateSet({ dynamic_data: dynamicData, updated_at: at }))
          .execute();
        return true;
      }),
    );
  }
}
