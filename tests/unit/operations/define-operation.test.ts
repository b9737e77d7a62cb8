import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatConsoleOperations } from '../../../server/chat/chat-console-operations.ts';
import type { ChatLimits } from '../../../server/chat/chat-limits.ts';
import type { ChatPreview } from '../../../server/chat/chat-preview.ts';
import { contactMergeOperation } from '../../../server/chat/contact-merge.ts';
import type { EntityService } from '../../../server/entities/entity-service.ts';
import { system, systemIn } from '../../../server/entities/system-context.ts';
import { entities } from '../../../server/generated/entities.ts';
import type { Authorizer, RoutePermission } from '../../../server/http/authorizer.ts';
import { HttpError } from '../../../server/http/http-error.ts';
import type { RequestContext } from '../../../server/http/request-context.ts';
import { permissionAuthorizer } from '../../../server/identity/permission-authorizer.ts';
import { operationDefiner, type Operation } from '../../../server/operations/define-operation.ts';
import { seedSettings } from '../../../server/settings/seed-settings.ts';
import { createSettingsOperations } from '../../../server/settings/settings-operations.ts';
import { SettingsStore } from '../../../server/settings/settings-store.ts';
import { openEntityTestDatabase, type EntityTestDatabase } from '../entities/entity-test-database.ts';

/**
 * Operations own access (server/operations): the definer's three kinds of access, system() as
 * the override, the check before any work; then features' operations run directly on a SQLite
 * database, refusing callers without their permissions with no transport in between.
 */
const caller = (permissions: string[], extra: Partial<RequestContext> = {}): { context: RequestContext } => ({
  context: { userId: 'u1', tenantId: null, permissions, ...extra },
});
const anonymous = (authFailure?: RequestContext['authFailure']) => ({ context: { userId: null, tenantId: null, permissions: [], ...(authFailure ? { authFailure } : {}) } });
const BOT_UPDATE: RoutePermission = { entity: 'bot', action: 'update', permission: 'bot:update', alternatives: ['bot:manage'] };
const BOT_DELETE: RoutePermission = { entity: 'bot', action: 'delete', permission: 'bot:delete', alternatives: ['bot:manage'] };

async function refusal(work: Promise<unknown>): Promise<HttpError> {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

/** An operation that counts its runs: a refused caller must not reach the work. */
function counted(define: ReturnType<typeof operationDefiner>, access: Parameters<typeof define>[0]): { operation: Operation<void, string>; runs: () => number } {
  let runs = 0;
  const operation = define<void, string>(access, async () => {
    runs += 1;
    return 'done';
  });
  return { operation, runs: () => runs };
}

describe('operationDefiner', () => {
  const define = operationDefiner(permissionAuthorizer);

  it('public: anyone, anonymous included', async () => {
    const { operation, runs } = counted(define, 'public');
    expect(await operation(anonymous(), undefined)).toBe('done');
    expect(runs()).toBe(1);
  });

  it('signedIn: 401 saying why for anonymous callers (expired, refused address, none), before any work', async () => {
    const { operation, runs } = counted(define, 'signedIn');
    expect((await refusal(operation(anonymous(), undefined))).message).toBe('Authentication required');
    expect((await refusal(operation(anonymous('expired'), undefined))).message).toBe('Token expired');
    expect((await refusal(operation(anonymous('ipNotAllowed'), undefined))).statusCode).toBe(401);
    expect(runs()).toBe(0);
    expect(await operation(caller([]), undefined)).toBe('done');
  });

  it('permissions: 401 anonymous, 403 naming the permission, an alternative grants it, every listed one is needed', async () => {
    const one = counted(define, [BOT_UPDATE]);
    expect((await refusal(one.operation(anonymous(), undefined))).statusCode).toBe(401);
    for (const held of [[], ['bot:view'], ['bot:create', 'bot:delete'], ['bottrace:manage']]) {
      const denied = await refusal(one.operation(caller(held), undefined));
      expect(denied.statusCode, held.join()).toBe(403);
      expect(denied.message).toBe('Missing permission bot:update');
    }
    expect(one.runs()).toBe(0);
    for (const held of [['bot:update'], ['bot:manage'], ['*']]) expect(await one.operation(caller(held), undefined), held.join()).toBe('done');

    const both = counted(define, [BOT_UPDATE, BOT_DELETE]);
    expect((await refusal(both.operation(caller(['bot:update']), undefined))).message).toBe('Missing permission bot:delete');
    expect((await refusal(both.operation(caller(['bot:delete']), undefined))).message).toBe('Missing permission bot:update');
    expect(both.runs()).toBe(0);
    expect(await both.operation(caller(['bot:update', 'bot:delete']), undefined)).toBe('done');
  });

  it('admit alone gives the same decision without running the work', async () => {
    const { operation, runs } = counted(define, [BOT_UPDATE]);
    expect((await refusal(operation.admit(caller(['bot:view'])))).statusCode).toBe(403);
    await expect(operation.admit(caller(['bot:manage']))).resolves.toBeUndefined();
    expect(runs()).toBe(0);
  });

  it('system() and systemIn() are the explicit override: they pass even an authorizer that refuses everyone', async () => {
    const refuseAll: Authorizer = () => 'deny';
    const strict = operationDefiner(refuseAll);
    for (const access of ['signedIn', [BOT_UPDATE], [BOT_UPDATE, BOT_DELETE]] as const) {
      const { operation } = counted(strict, access);
      expect(await operation({ context: system() }, undefined)).toBe('done');
      expect(await operation({ context: systemIn('t1') }, undefined)).toBe('done');
      // A request's context with every permission is not system(): the authorizer decides.
      if (access !== 'signedIn') expect((await refusal(operation(caller(['*']), undefined))).statusCode).toBe(403);
    }
  });

  it('refuses a permission access that names no permission', () => {
    expect(() => define([], async () => null)).toThrow(/lists no permission/);
  });
});

describe('feature operations on SQLite, without a transport', () => {
  let engine: EntityTestDatabase;
  let service: EntityService;
  const define = operationDefiner(permissionAuthorizer);

  beforeEach(async () => {
    engine = await openEntityTestDatabase('forja-feature-ops-');
    service = engine.service;
  });
  afterEach(() => engine.close());

  it('the contact merge needs contact update and delete, and a refused merge changes nothing', async () => {
    const merge = contactMergeOperation({ service, database: engine.database, entities, defineOperation: define });
    const source = await service.create('contact', system(), { name: 'Source', memory: [] });
    const target = await service.create('contact', system(), { name: 'Target', memory: [] });
    const input = { id: String(source._id), body: { into: target._id } };
    expect((await refusal(merge(anonymous(), input))).statusCode).toBe(401);
    for (const held of [['contact:view'], ['contact:update'], ['contact:delete']]) {
      expect((await refusal(merge(caller(held), input))).statusCode, held.join()).toBe(403);
    }
    expect((await service.findById('contact', system(), String(source._id))).name).toBe('Source');
    expect(await merge(caller(['contact:update', 'contact:delete']), input)).toMatchObject({ into: target._id, movedConversations: 0 });
  });

  it('settings: reads need setting:view, changes setting:update and a caller without a tenant', async () => {
    await seedSettings(service);
    const settings = createSettingsOperations({
      store: new SettingsStore(engine.database).writeThrough(service),
      readConfig: async () => ({ googleClientId: null }) as never,
      defineOperation: define,
    });
    expect((await refusal(settings.list(caller(['bot:manage']), undefined))).statusCode).toBe(403);
    expect((await refusal(settings.find(anonymous(), { keyOrId: 'llm.model' }))).statusCode).toBe(401);
    expect(await settings.find(caller(['setting:view']), { keyOrId: 'llm.model' })).toMatchObject({ key: 'llm.model' });
    const change = { id: 'llm.model', body: { value: 'gpt-test-model' } };
    expect((await refusal(settings.update(caller(['setting:view']), change))).statusCode).toBe(403);
    const tenantAdmin = await refusal(settings.update(caller(['setting:manage'], { tenantId: 't1' }), change));
    expect(tenantAdmin.i18nMessage).toBe('error.platformOnly');
    expect(((await settings.find({ context: system() }, { keyOrId: 'llm.model' })) as { value: unknown }).value).not.toBe('gpt-test-model');
    expect(await settings.update(caller(['setting:manage']), change)).toMatchObject({ key: 'llm.model', value: 'gpt-test-model' });
    // Public: the sign-in page reads it before anyone signs in.
    expect(await settings.publicValues(anonymous(), undefined)).toMatchObject({ googleClientId: null });
  });

  it('the chat console: analytics needs bottrace:view, the preview bot:update, before reading their input', async () => {
    // The preview is refused before it is reached: a stand-in that fails loudly if it ever runs.
    const preview = { run: () => Promise.reject(new Error('the preview ran for a refused caller')) } as unknown as ChatPreview;
    const chat = createChatConsoleOperations({ database: engine.database, service, entities, defineOperation: define, preview, limits: { maxMessageChars: 1000 } as ChatLimits });
    for (const held of [[], ['bot:manage'], ['bottrace:create']]) {
      expect((await refusal(chat.analytics(caller(held), {}))).statusCode, held.join()).toBe(403);
    }
    // Access first: a refused caller learns nothing about their (bad) input.
    expect((await refusal(chat.analytics(caller(['bot:view']), { from: 'not a day' }))).statusCode).toBe(403);
    expect((await refusal(chat.analytics(caller(['bottrace:view']), { from: 'not a day' }))).statusCode).toBe(400);
    expect(await chat.analytics(caller(['bottrace:manage']), {})).toBeTypeOf('object');
    for (const held of [['bot:view'], ['bottrace:manage']]) {
      expect((await refusal(chat.preview(caller(held), { botId: 'x', body: { message: 'hola' } }))).statusCode, held.join()).toBe(403);
    }
    expect((await refusal(chat.preview(anonymous(), { botId: 'x', body: null }))).statusCode).toBe(401);
  });
});
