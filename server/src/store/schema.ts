/** Table shapes as Kysely sees them. Timestamps are ISO 8601 UTC text in both databases so they compare the same. */
export interface ApiKeysTable {
  id: string;
  name: string;
  role: string;
  /** JSON array of scope entries. */
  targets: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeySecretsTable {
  hash: string;
  key_id: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
}

export interface TemplatesTable {
  id: string;
  name: string;
  body: string;
  version: number;
  etag: string;
  created_at: string;
  updated_at: string;
}

/** Sample dynamic data the studio renders a template with. */
export interface TemplateSamplesTable {
  template_id: string;
  /** The dynamic_data JSON text. */
  dynamic_data: string;
  updated_at: string;
}

export interface Database {
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
  templates: TemplatesTable;
  template_samples: TemplateSamplesTable;
}
