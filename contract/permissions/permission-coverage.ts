import type { EntityModel } from '../model/entity-model.ts';

/** What the rule reads of the models: their permissions (the server's models and the console's both fit). */
export type PermissionModels = Readonly<Record<string, Pick<EntityModel, 'permissions'>>>;

/** The permission that holds every other one (server/http/request-context.ts uses the same). */
export const ALL_PERMISSIONS = '*';

/** Every permission string the models define, sorted (GET /api/permissions; the seeded Admin holds all of it). */
export function allPermissions(entities: PermissionModels): string[] {
  const all = new Set<string>();
  for (const model of Object.values(entities)) for (const permission of model.permissions.all) all.add(permission);
  return [...all].sort();
}

/**
 * (Shared by the server and the console: role-delegation.ts decides with it on both sides.)
 * "Does this caller hold at least these permissions?" — the rule behind every identity write:
 * a caller may only hand out, create, edit or act on roles and users whose permissions are a
 * subset of its own (server/identity/README.md, "Privilege boundaries").
 *
 * Implications are the ones the authorizer applies: `entity:manage` implies view, create,
 * update and delete of that entity; `view` / `create` imply the own-records variants
 * (`userApiKey:myView` / `myCreate`). `*` holds everything; a role holding every permission of
 * the catalogue (the seeded Admin) counts as holding `*` and any string outside the catalogue.
 */
export class PermissionCoverage {
  private readonly catalogue: string[];
  /** permission -> the permissions that imply it. */
  private readonly impliedBy = new Map<string, string[]>();

  constructor(entities: PermissionModels) {
    this.catalogue = allPermissions(entities);
    for (const model of Object.values(entities)) {
      const p = model.permissions;
      const add = (permission: string | null, by: (string | null)[]) => {
        if (!permission) return;
        const list = this.impliedBy.get(permission) ?? [];
        for (const b of by) if (b && b !== permission && !list.includes(b)) list.push(b);
        this.impliedBy.set(permission, list);
      };
      for (const action of [p.view, p.create, p.update, p.delete]) add(action, [p.manage]);
      add(p.viewOwn, [p.view, p.manage]);
      add(p.createOwn, [p.create, p.manage]);
    }
  }

  /** Holds every permission there is: `*`, or the whole catalogue. */
  isFullAdmin(held: readonly string[]): boolean {
    if (held.includes(ALL_PERMISSIONS)) return true;
    const set = new Set(held);
    return this.catalogue.every((permission) => set.has(permission));
  }

  /** Whether `held` grants `permission` (directly or by implication). */
  grants(held: readonly string[], permission: string): boolean {
    if (held.includes(ALL_PERMISSIONS) || held.includes(permission)) return true;
    if ((this.impliedBy.get(permission) ?? []).some((by) => held.includes(by))) return true;
    return this.isFullAdmin(held);
  }

  /** The permissions of `wanted` that `held` does not grant (empty: wanted is a subset). */
  missing(held: readonly string[], wanted: readonly unknown[]): string[] {
    if (this.isFullAdmin(held)) return [];
    const out: string[] = [];
    for (const permission of wanted) {
      const text = String(permission);
      if (!this.grants(held, text) && !out.includes(text)) out.push(text);
    }
    return out;
  }
}
