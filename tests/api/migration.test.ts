import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EntityModel, FieldModel } from '../../contract/model/entity-model.ts';
import { entities } from '../../server/generated/entities.ts';
import { schemas, type EntitySchemas } from '../../server/generated/schemas.ts';
import { startTestServer } from './helpers/test-server.ts';
import { create } from './helpers/fixtures.ts';
import { tableIndexNames, withOtherConnection } from './helpers/test-database.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-migrate-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The generated contact model with one more string field, as `npm run generate` would emit it. */
function contactWithNickname(): { model: EntityModel; schemas: EntitySchemas } {
  const model = structuredClone(entities.contact);
  const template = model.fields.find((f) => f.name === 'email')!;
  const nickname: FieldModel = { ...structuredClone(template), name: 'nickname', label: 'field.contact.nickname' };
  model.fields.push(nickname);
  model.storage.columns.splice(model.storage.columns.length - 2, 0, { name: 'nickname', type: 'text', nullable: true, primaryKey: false });
  model.storage.indexes.push({ name: 'idx_contacts_nickname', columns: ['nickname'] });
  model.searchFields.push('nickname');
  const s = structuredClone(schemas.contact);
  const property = { type: ['string', 'null'], maxLength: 40, title: 'field.contact.nickname', 'x-messages': { maxLength: 'validation.maxLength' } };
  (s.create.properties as Record<string, unknown>).nickname = property;
  (s.update.properties as Record<string, unknown>).nickname = property;
  (s.record.properties as Record<string, unknown>).nickname = { type: ['string', 'null'] };
  return { model, schemas: s };
}

/** The contact model without its email field (removed from the manifest). */
function contactWithoutEmail(): EntityModel {
  const model = structuredClone(entities.contact);
  model.fields = model.fields.filter((f) => f.name !== 'email');
  model.storage.columns = model.storage.columns.filter((c) => c.name !== 'email');
  model.storage.indexes = model.storage.indexes.filter((i) => !i.columns.includes('email'));
  model.searchFields = model.searchFields.filter((f) => f !== 'email');
  model.sortFields = model.sortFields.filter((f) => f !== 'email');
  model.export.headers = model.export.headers.filter((f) => f !== 'email');
  return model;
}

describe('additive migration across restarts on the same DATA_DIR', () => {
  it('adds a new field as a column, keeps old rows, accepts the field; never drops a removed one', async () => {
    const first = await startTestServer({ dataDir, entities: { ...entities, contact: entities.contact }, schemas: { ...schemas, contact: schemas.contact } });
    const old = await create(first, '/api/contacts', { name: 'Before', email: 'before@example.com', memory: [{ attribute: 'a', content: 'b' }] });
    // The new field does not exist yet: it is an unknown property.
    const early = await first.post('/api/contacts', { name: 'Early', nickname: 'E' });
    expect(early.status).toBe(400);
    expect(early.body.inputErrors).toEqual([{ field: 'nickname', reason: 'validation.unknownField' }]);
    await first.close({ keepData: true });

    const next = contactWithNickname();
    const second = await startTestServer({ dataDir, entities: { ...entities, contact: next.model }, schemas: { ...schemas, contact: next.schemas } });
    const kept = await second.get(`/api/contacts/${old._id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ ...old, nickname: null });
    const added = await create(second, '/api/contacts', { name: 'After', nickname: 'Nick' });
    expect(added.nickname).toBe('Nick');
    // An old row can be updated with the new field; its other values stay.
    const updated = await second.put(`/api/contacts/${old._id}`, { nickname: 'Old nick' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Before', email: 'before@example.com', nickname: 'Old nick', memory: [{ attribute: 'a', content: 'b' }] });
    expect((await second.get('/api/contacts?search=old%20nick')).body.total).toBe(1);
    const tooLong = await second.post('/api/contacts', { name: 'Long', nickname: 'x'.repeat(41) });
    expect(tooLong.body.inputErrors).toEqual([{ field: 'nickname', reason: 'validation.maxLength' }]);
    await second.close({ keepData: true });

    const indexes = await withOtherConnection(dataDir, (db) => tableIndexNames(db, 'contacts'));
    expect(indexes).toEqual(expect.arrayContaining(['idx_contacts_nickname', 'idx_contacts_name', 'idx_contacts_email_createdAt', 'idx_contacts_tenant_createdAt']));

    // Email removed from the model: the API stops showing it, the column and its data stay.
    const third = await startTestServer({ dataDir, entities: { ...entities, contact: contactWithoutEmail() }, schemas: { ...schemas, contact: schemas.contact } });
    const withoutEmail = await third.get(`/api/contacts/${old._id}`);
    expect(withoutEmail.body).not.toHaveProperty('email');
    await third.close({ keepData: true });

    const fourth = await startTestServer({ dataDir, entities: { ...entities, contact: next.model }, schemas: { ...schemas, contact: next.schemas } });
    const restored = await fourth.get(`/api/contacts/${old._id}`);
    expect(restored.body).toMatchObject({ email: 'before@example.com', nickname: 'Old nick' });
    expect((await fourth.get('/api/contacts')).body.total).toBe(2);
    await fourth.close({ keepData: true });
  });
});
