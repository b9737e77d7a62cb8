import { describe, expect, it, vi } from 'vitest';
import { GraphqlTransport } from '../../../runtime/transport/graphql-transport.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { graphqlDocuments } from '../../../src/generated/graphql-operations.ts';
import { entities } from '../../../src/generated/entities.ts';

function transportAnswering(body: unknown, status = 200) {
  const calls: { url: string; init: { body: string; headers: Headers } }[] = [];
  const fetch = vi.fn(async (input: Request) => {
    calls.push({ url: input.url, init: { body: await input.text(), headers: input.headers } });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  const transport = new GraphqlTransport({ documents: graphqlDocuments, baseUrl: 'http://api.test', getToken: () => 'tok', fetch: fetch as unknown as typeof globalThis.fetch });
  return { transport, calls };
}

describe('GraphqlTransport', () => {
  it('sends the generated document with the params as variables and returns `result`', async () => {
    const page = { items: [{ _id: 'b1', name: 'Bot' }], total: 1, page: 2, limit: 5 };
    const { transport, calls } = transportAnswering({ data: { result: page } });
    const filters = [{ field: 'name', operator: 'eq' as const, value: 'Bot' }];
    await expect(transport.request({ action: 'paginate', entity: entities.bot, params: { page: 2, limit: 5, filters } })).resolves.toEqual(page);
    expect(calls[0].url).toBe('http://api.test/graphql');
    expect(calls[0].init.headers.get('authorization')).toBe('Bearer tok');
    const sent = JSON.parse(calls[0].init.body);
    expect(sent.query).toBe(graphqlDocuments.bot!.paginate);
    expect(sent.variables).toEqual({ page: 2, limit: 5, filters });
  });

  it('strips system fields from record copies before create and update', async () => {
    const { transport, calls } = transportAnswering({ data: { result: { _id: 'b1' } } });
    await transport.request({ action: 'update', entity: entities.bot, params: { id: 'b1', data: { _id: 'b1', createdAt: 'x', updatedAt: 'y', name: 'N' } } });
    expect(JSON.parse(calls[0].init.body).variables).toEqual({ id: 'b1', data: { name: 'N' } });
  });

  it('maps errors with REST extensions to the same ApiError as REST (docs/product-rules.md#errors)', async () => {
    const { transport } = transportAnswering({
      data: null,
      errors: [{ message: 'Validation failed', extensions: { status: 400, message: 'Validation failed', inputErrors: [{ field: 'name', reason: 'validation.required' }] } }],
    });
    const error = await transport.request({ action: 'create', entity: entities.bot, params: { data: {} } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('error.validation');
    expect((error as ApiError).inputErrors).toEqual({ name: ['validation.required'] });
  });

  it('a permission refusal keeps its status and i18n key', async () => {
    const { transport } = transportAnswering({ data: null, errors: [{ message: 'Missing permission bot:view', extensions: { status: 403, message: 'Missing permission bot:view', i18nMessage: 'error.forbidden' } }] });
    const error = (await transport.request({ action: 'findById', entity: entities.bot, params: { id: 'b1' } }).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('error.forbidden');
    expect(error.status).toBe(403);
  });

  it('an action with no generated operation is a clear error', async () => {
    const { transport } = transportAnswering({});
    await expect(transport.request({ action: 'create', entity: entities.conversation, params: { data: {} } }))
      .rejects.toThrow('No GraphQL operation "create" for entity "conversation"');
  });
});
