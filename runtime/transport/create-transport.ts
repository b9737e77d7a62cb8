import type { Transport } from './transport.ts';
import { RestTransport, type FileUploader, type RestTransportOptions } from './rest-transport.ts';

export type TransportKind = 'rest' | 'graphql';

/**
 * Chooses the data transport from configuration (spec §1: REST by default, GraphQL alternative,
 * an invalid setting is an error). GraphQL arrives with its own issue.
 */
export function createTransport(kind: string, options: RestTransportOptions = {}): Transport & FileUploader {
  switch (kind) {
    case 'rest':
      return new RestTransport(options);
    case 'graphql':
      throw new Error('GraphQL transport is not available yet');
    default:
      throw new Error(`Invalid transport "${kind}": expected "rest" or "graphql"`);
  }
}
