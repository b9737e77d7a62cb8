import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { Transport } from '../transport/transport.ts';
import type { BulkDeleteReport, BulkDeleteRequest } from '../../contract/endpoints/bulk-delete.ts';
import type {
  CallOptions, ExportFile, ExportQuery, FindQuery, ImportQuery, ImportReport, ListQuery, Paginated,
} from './queries.ts';

/**
 * The typed client for one entity. Every method takes one params object, so adding an option never
 * reorders arguments. The generator emits one instance per entity (src/generated/entity-clients.ts).
 */
export class EntityClient<T, TInput> {
  constructor(
    readonly transport: Transport,
    readonly entity: ClientEntityModel,
  ) {}

  paginate(params: ListQuery = {}): Promise<Paginated<T>> {
    return this.transport.request({ action: 'paginate', entity: this.entity, params });
  }

  find(params: FindQuery = {}): Promise<T[]> {
    return this.transport.request({ action: 'find', entity: this.entity, params });
  }

  findOne(params: FindQuery = {}): Promise<T | null> {
    return this.transport.request({ action: 'findOne', entity: this.entity, params });
  }

  findById(params: { id: string } & CallOptions): Promise<T> {
    return this.transport.request({ action: 'findById', entity: this.entity, params });
  }

  findByIds(params: { ids: string[] } & CallOptions): Promise<T[]> {
    if (params.ids.length === 0) return Promise.resolve([]);
    return this.transport.request({ action: 'findByIds', entity: this.entity, params });
  }

  search(params: { search: string } & CallOptions): Promise<T[]> {
    return this.transport.request({ action: 'search', entity: this.entity, params });
  }

  create(params: { data: TInput } & CallOptions): Promise<T> {
    return this.transport.request({ action: 'create', entity: this.entity, params });
  }

  update(params: { id: string; data: Partial<TInput> } & CallOptions): Promise<T> {
    return this.transport.request({ action: 'update', entity: this.entity, params });
  }

  delete(params: { id: string } & CallOptions): Promise<boolean> {
    return this.transport.request({ action: 'delete', entity: this.entity, params });
  }

  /** Deletes each record on its own and reports one outcome per record (contract/endpoints/bulk-delete.ts). */
  bulkDelete(params: { body: BulkDeleteRequest } & CallOptions): Promise<BulkDeleteReport> {
    return this.transport.request({ action: 'bulkDelete', entity: this.entity, params });
  }

  export(params: ExportQuery = {}): Promise<ExportFile> {
    return this.transport.request({ action: 'export', entity: this.entity, params });
  }

  import(params: ImportQuery): Promise<ImportReport> {
    return this.transport.request({ action: 'import', entity: this.entity, params });
  }
}
