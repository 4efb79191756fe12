/** What test/fixtures/previous-release/fixture.json records of each database a release made (scripts/previous-release-fixture.ts). */
export interface PreviousRelease {
  admin_key: string;
  render_key: string;
  rotated: { id: string; old_secret: string; new_secret: string };
  revoked_key: string;
  welcome: { id: string; version: number; etag: string };
  receipt: { id: string; etag: string };
  sample: unknown;
}
