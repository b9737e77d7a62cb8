import type { SettingType } from '../../contract/settings/setting-value-schemas.ts';

/** The current-user lookup (GET /api/auth/me, docs/product-rules.md#entities User). */
export interface SessionUser {
  id: string;
  _id?: string;
  username: string;
  email?: string;
  phone?: string;
  name?: string;
  avatar?: string | { url?: string } | null;
  role?: { id?: string; _id?: string; name?: string; permissions?: string[] } | null;
  tenant?: { id?: string; _id?: string; name?: string } | null;
}

/** A setting as the settings API returns it (docs/product-rules.md#entities Setting). */
export interface Setting {
  _id: string;
  id?: string;
  key: string;
  label?: string;
  category?: string;
  type: SettingType;
  value: unknown;
  options?: string[] | null;
  regex?: string | null;
  prefix?: string | null;
  suffix?: string | null;
}

/** The setting types (docs/product-rules.md#entities): the contract's, which holds one value schema per type. */
export type { SettingType };

/** Saved client state (docs/product-rules.md#entities): dark mode, auth store, settings list. */
export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  darkMode: boolean;
  settings: Setting[];
}
