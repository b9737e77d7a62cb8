import type { EntityModel } from '../../contract/model/entity-model.ts';

export type {
  FieldModel, FieldType, FilterModel, FilterOperator, SectionModel, RowActionModel, Condition, FileFormat, SortOrder, RefModel,
} from '../../contract/model/entity-model.ts';

/** The entity model as the browser receives it: everything but the server's storage details. */
export type ClientEntityModel = Omit<EntityModel, 'storage'>;
