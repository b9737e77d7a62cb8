// Issue 27 item 3, the console's side: the user and role rows' rules read the signed-in user and
// call contract/permissions/role-delegation.ts (the server's functions; the API walk test in
// tests/api/role-delegation.test.ts compares their answers with the server's).
import { afterEach, describe, expect, it } from 'vitest';
import { mayActOnUserRow, setUserRowContext } from '../../../src/overrides/user/user-row-rules.ts';
import { mayOfferChildRole, maySubmitRole } from '../../../src/overrides/role/role-rules.ts';
import { sessionStore } from '../../../src/session/session-store.ts';
import { entityAccess } from '../../../src/generated/entity-access.ts';

const EVERY = Object.values(entityAccess).flatMap((access) => Object.values(access.permissions));
const signIn = (permissions: string[], roleId = 'own') => sessionStore.setUser({ id: 'me', _id: 'me', username: 'me', role: { _id: roleId, name: 'Own', permissions } });
const roles = [
  { _id: 'admin', name: 'Admin', permissions: EVERY },
  { _id: 'visor', name: 'Visor', permissions: ['bot:view'] },
  { _id: 'gestor', name: 'Gestor', permissions: ['bot:manage', 'knowledge:manage'] },
];

afterEach(() => {
  sessionStore.setUser(null);
  setUserRowContext(null);
});

describe('user rows', () => {
  it('a manager of Visor acts on Visor users, itself, its own role and users without a role; not on Admin or Gestor', () => {
    signIn(['user:manage']);
    setUserRowContext({ roles, assignable: [{ _id: 'visor' }] });
    const row = (role: unknown, id = 'someone') => ({ _id: id, username: id, role });
    expect(mayActOnUserRow(row('visor'))).toBe(true);
    expect(mayActOnUserRow(row({ _id: 'visor', name: 'Visor' }))).toBe(true);
    expect(mayActOnUserRow(row('own'))).toBe(true);
    expect(mayActOnUserRow(row(null))).toBe(true);
    expect(mayActOnUserRow(row('admin', 'me'))).toBe(true);
    expect(mayActOnUserRow(row('admin'))).toBe(false);
    expect(mayActOnUserRow(row('gestor'))).toBe(false);
    expect(mayActOnUserRow(row('unknown-role'))).toBe(false);
  });

  it('an administrator acts on everyone; before the lookups arrive the server decides', () => {
    signIn(EVERY);
    setUserRowContext({ roles, assignable: roles });
    for (const role of roles) expect(mayActOnUserRow({ _id: 'x', role: role._id })).toBe(true);
    setUserRowContext(null);
    signIn(['user:manage']);
    expect(mayActOnUserRow({ _id: 'x', role: 'admin' })).toBe(true);
  });
});

describe('role rows and the role editor', () => {
  it('read-only roles offer no Guardar; a role above the user offers none either', () => {
    signIn(['role:manage', 'bot:manage', 'knowledge:manage', 'bot:view']);
    expect(maySubmitRole({ name: 'Gestor', permissions: ['bot:manage'] })).toBe(true);
    expect(maySubmitRole({ name: 'Bloqueado', permissions: ['bot:view'], readonly: true })).toBe(false);
    expect(maySubmitRole({ name: 'Admin', permissions: EVERY })).toBe(false);
  });

  it('the child-role picker offers roles whose permissions the user holds; rows without permissions go to the server', () => {
    signIn(['role:manage', 'bot:manage']);
    expect(mayOfferChildRole(roles[1])).toBe(true);
    expect(mayOfferChildRole(roles[2])).toBe(false);
    expect(mayOfferChildRole(roles[0])).toBe(false);
    expect(mayOfferChildRole({ _id: 'x', name: 'Sin permisos leídos' })).toBe(true);
  });
});
