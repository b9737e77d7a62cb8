import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { BulkDeleteRequest } from '../../contract/endpoints/bulk-delete.ts';
import type { ExportQuery, FindQuery, ImportQuery, ListQuery, CallOptions } from '../clients/queries.ts';

/**
 * A transport-neutral description of one entity call. RestTransport maps it to HTTP under the
 * entity's basePath; a GraphQL transport maps it to the generated operation of the same name.
 */
export type EntityOperation =
  | { action: 'paginate'; entity: ClientEntityModel; params: ListQuery }
  | { action: 'find'; entity: ClientEntityModel; params: FindQuery }
  | { action: 'findOne'; entity: ClientEntityModel; params: FindQuery }
  | { action: 'findById'; entity: ClientEntityModel; params: { id: string } & CallOptions }
  | { action: 'findByIds'; entity: ClientEntityModel; params: { ids: string[] } & CallOptions }
  | { action: 'search'; entity: ClientEntityModel; params: { search: string } & CallOptions }
  | { action: 'create'; entity: ClientEntityModel; params: { data: unknown } & CallOptions }
  | { action: 'update'; entity: ClientEntityModel; params: { id: string; data: unknown } & CallOptions }
  | { action: 'delete'; entity: ClientEntityModel; params: { id: string } & CallOptions }
  | { action: 'bulkDelete'; entity: ClientEntityModel; params: { body: BulkDeleteRequest } & CallOptions }
  | { action: 'export'; entity: ClientEntityModel; params: ExportQuery }
  | { action: 'import'; entity: ClientEntityModel; params: ImportQuery };

export type EntityAction = EntityOperation['action'];

export interface Transport {
  request<R>(operation: EntityOperation): Promise<R>;
}
