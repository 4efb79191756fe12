import type { Kysely, Migration, MigrationProvider } from "kysely";

/**
 * Versioned migrations, applied in name order at start-up by Kysely's Migrator (which takes a lock,
 * so several servers starting together on one PostgreSQL do not race). Never edit a released one:
 * add the next number.
 */
const migrations: Record<string, Migration> = {
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("api_keys")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("targets", "text", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)")
        .addColumn("revoked_at", "varchar(32)")
        .execute();
      await db.schema
        .createTable("api_key_secrets")
        .addColumn("hash", "char(64)", (c) => c.primaryKey())
        .addColumn("key_id", "varchar(64)", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
        .addColumn("prefix", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)")
        .execute();
      await db.schema.createIndex("api_key_secrets_key_id").on("api_key_secrets").column("key_id").execute();
      await db.schema
        .createTable("templates")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("etag", "varchar(80)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("templates_created_at").on("templates").columns(["created_at", "id"]).execute();
    },
  },
  // The studio's sample data (dynamic_data JSON) per template; goes with its template.
  "0002_template_samples": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("template_samples")
        .addColumn("template_id", "varchar(64)", (c) => c.primaryKey().references("templates.id").onDelete("cascade"))
        .addColumn("dynamic_data", "text", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
