import { describe, expect, it } from 'vitest';
import { createTransport } from '../../../runtime/transport/create-transport.ts';
import { RestTransport } from '../../../runtime/transport/rest-transport.ts';
import { GraphqlTransport } from '../../../runtime/transport/graphql-transport.ts';
import { graphqlDocuments } from '../../../src/generated/graphql-operations.ts';

describe('createTransport', () => {
  it('builds REST by default', () => {
    expect(createTransport('rest')).toBeInstanceOf(RestTransport);
  });
  it('builds GraphQL with the generated documents, and says so without them', () => {
    expect(createTransport('graphql', { graphqlDocuments })).toBeInstanceOf(GraphqlTransport);
    expect(() => createTransport('graphql')).toThrow('The GraphQL transport needs the generated graphqlDocuments');
  });
  it('rejects anything else', () => {
    expect(() => createTransport('soap')).toThrow('Invalid transport "soap": expected "rest" or "graphql"');
  });
});
