import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { entities as entityModels } from '../../../server/generated/entities.ts';
import { routePermission } from '../../../server/entities/route-permission.ts';
import { permissionAuthorizer } from '../../../server/identity/permission-authorizer.ts';
import { mayDo, type EntityAction } from '../../../contract/permissions/entity-access.ts';
import { entities } from '../../../src/generated/entities.ts';

const ACTIONS: EntityAction[] = ['view', 'create', 'update', 'delete'];

/** Every subset of an entity's permission names, as role permission lists. */
function roles(names: string[]): string[][] {
  return Array.from({ length: 1 << names.length }, (_, mask) => names.filter((_, bit) => mask & (1 << bit)));
}

describe('one permission rule for the console and the server', () => {
  for (const model of Object.values(entityModels)) {
    it(`${model.name}: the console shows an action exactly when the server allows it`, async () => {
      const client = entities[model.name as keyof typeof entities];
      for (const permissions of roles(model.permissions.all)) {
        for (const action of ACTIONS) {
          const server = await permissionAuthorizer({ request: {} as FastifyRequest, context: { userId: 'u1', tenantId: null, permissions }, required: routePermission(model, action) });
          const console = mayDo((permission) => permissions.includes(permission), client.permissions, action);
          expect(console, `${model.name} ${action} with [${permissions.join(', ')}]`).toBe(server === 'allow');
        }
      }
    });
  }

  it(':manage implies view, create, update and delete; view alone implies nothing else', () => {
    const holds = (list: string[]) => (permission: string) => list.includes(permission);
    for (const action of ACTIONS) expect(mayDo(holds(['bot:manage']), entities.bot.permissions, action)).toBe(true);
    expect(ACTIONS.filter((action) => mayDo(holds(['bot:view']), entities.bot.permissions, action))).toEqual(['view']);
    expect(ACTIONS.filter((action) => mayDo(holds(['userApiKey:myCreate']), entities.userApiKey.permissions, action))).toEqual(['create']);
  });
});
