import { describe, expect, it } from 'vitest';
import { createTransport } from '../../../runtime/transport/create-transport.ts';
import { RestTransport } from '../../../runtime/transport/rest-transport.ts';

describe('createTransport', () => {
  it('builds REST by default', () => {
    expect(createTransport('rest')).toBeInstanceOf(RestTransport);
  });
  it('says GraphQL is not available yet', () => {
    expect(() => createTransport('graphql')).toThrow('GraphQL transport is not available yet');
  });
  it('rejects anything else', () => {
    expect(() => createTransport('soap')).toThrow('Invalid transport "soap": expected "rest" or "graphql"');
  });
});
