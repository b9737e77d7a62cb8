import type { Transport } from './transport.ts';
import { RestTransport, type FileUploader, type RestTransportOptions } from './rest-transport.ts';
import { GraphqlTransport, type GraphqlDocuments } from './graphql-transport.ts';

export type TransportKind = 'rest' | 'graphql';

export interface TransportOptions extends RestTransportOptions {
  /** The generated documents (src/generated/graphql-operations.ts); needed by the GraphQL transport. */
  graphqlDocuments?: GraphqlDocuments;
}

/**
 * Chooses the data transport from configuration (docs/product-rules.md#product: REST by default, GraphQL alternative,
 * an invalid setting is an error).
 */
export function createTransport(kind: string, options: TransportOptions = {}): Transport & FileUploader {
  switch (kind) {
    case 'rest':
      return new RestTransport(options);
    case 'graphql':
      if (!options.graphqlDocuments) throw new Error('The GraphQL transport needs the generated graphqlDocuments');
      return new GraphqlTransport({ ...options, documents: options.graphqlDocuments });
    default:
      throw new Error(`Invalid transport "${kind}": expected "rest" or "graphql"`);
  }
}
