/**
 * What a key may do is its role. `render` keys are the SDK's: they fetch templates (and render, within
 * their targets) and nothing else. The studio's roles add to each other: a `viewer` reads templates
 * and previews them, an `editor` also writes templates, an `admin` also manages keys.
 */
export const KEY_ROLES = ["render", "viewer", "editor", "admin"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** The permissions routes ask for (`config.auth`), each held by some roles. */
export const PERMISSIONS = ["templates:read", "templates:write", "keys:manage"] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Readonly<Record<KeyRole, readonly Permission[]>> = {
  render: [],
  viewer: ["templates:read"],
  editor: ["templates:read", "templates:write"],
  admin: ["templates:read", "templates:write", "keys:manage"],
};

/** What each permission lets a key do, as the 403 message and the documentation say it. */
export const PERMISSION_MEANING: Readonly<Record<Permission, string>> = {
  "templates:read": "read and preview templates",
  "templates:write": "create, change and delete templates and their sample data",
  "keys:manage": "manage API keys",
};

/** The permissions of a role; none for a role this version does not know (a newer server's, in a shared database). */
export function permissionsOf(role: string): readonly Permission[] {
  return ROLE_PERMISSIONS[role as KeyRole] ?? [];
}

export function rolesWith(permission: Permission): KeyRole[] {
  return KEY_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
}
