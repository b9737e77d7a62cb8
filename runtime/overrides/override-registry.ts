import type { ComponentType } from 'react';
import type { Widget } from '@rjsf/utils';
import type { ClientEntityModel } from '../model/client-entity-model.ts';

/** What a row action handler receives. */
export interface RowActionContext {
  row: Record<string, unknown>;
  model: ClientEntityModel;
  /** Reload the entity's list (after a train, a clear, ...). */
  reload: () => void;
}

export type RowActionHandler = (context: RowActionContext) => void | Promise<void>;

/** What a row action rendered by its own component receives: the row plus the model's label and icon. */
export interface RowActionComponentProps extends RowActionContext {
  /** Translated label of the manifest's row action. */
  label: string;
  icon: ComponentType<{ size?: number | string }>;
}

/**
 * A row action that renders itself (e.g. shows progress while it runs and its error afterwards);
 * the generic page only places it in the row. A plain handler gets the standard icon button.
 */
export interface RowActionComponent {
  component: ComponentType<RowActionComponentProps>;
}

export type RowActionOverride = RowActionHandler | RowActionComponent;

/** What a table cell rendered by the app receives: the column's value and its whole row. */
export interface CellComponentProps {
  value: unknown;
  row: Record<string, unknown>;
}

export interface CrudPageProps {
  model: ClientEntityModel;
}

/** A replacement form gets the same contract as EntityForm. */
export type FormOverride = ComponentType<import('../form/entity-form.tsx').EntityFormProps>;

/** Everything an app may override for one entity; every part optional. */
export interface EntityOverrides {
  /** Replaces the whole CRUD page for the entity. */
  page?: ComponentType<CrudPageProps>;
  /** Replaces the dialog form. */
  form?: FormOverride;
  /** Handlers (or self-rendering components) for model.rowActions, by action name. */
  rowActions?: Record<string, RowActionOverride>;
  /** Table cells by column name, instead of the generic rendering of the field's type. */
  cells?: Record<string, ComponentType<CellComponentProps>>;
  /** RJSF widgets by field name (top-level fields). */
  fieldWidgets?: Record<string, Widget>;
  /**
   * Whether the dialog offers its submit button for this record (edit and delete); false hides it
   * (read-only roles). Absent: always offered.
   */
  canSubmit?: (record: Record<string, unknown>) => boolean;
  /**
   * Whether a row offers Edit / Delete, for rules finer than the entity's permission (a role above
   * the user's: the server would refuse). Absent: every row the permission allows.
   */
  rowAllows?: (operation: 'edit' | 'delete', record: Record<string, unknown>) => boolean;
  /**
   * The console only reads this entity (an audit record such as bot traces): no create, import,
   * edit or delete, whatever the role holds. The server's API is unchanged: the system (and API
   * clients with the permission) may still write.
   */
  readOnly?: boolean;
}

/** An explicit object literal keyed by entity name (docs/architecture.md: registries fail loudly). */
export type OverrideRegistry = Readonly<Record<string, EntityOverrides>>;

export function entityOverrides(registry: OverrideRegistry, entity: string): EntityOverrides {
  return registry[entity] ?? {};
}

/** A row action declared in the model must have a handler: a silent no-op button is a bug. */
export function requireRowActionHandler(registry: OverrideRegistry, entity: string, action: string): RowActionOverride {
  const handler = registry[entity]?.rowActions?.[action];
  if (!handler) {
    throw new Error(`No handler registered for row action "${action}" of entity "${entity}" (override registry rowActions)`);
  }
  return handler;
}
