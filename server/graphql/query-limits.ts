import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type GraphQLOutputType,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import { MAX_LIMIT } from '../entities/list-query.ts';

/**
 * What one GraphQL request may ask for. Cost counts work, not text: every field of every row a
 * list may return, aliases and fragment spreads each counted where they appear, `limit` read from
 * the literal or the variable. 100,000 is one 10,000-row page of ten fields, the most REST serves
 * in one answer.
 */
export const GRAPHQL_MAX_COST = 100_000;
/** Root fields of one operation (aliases and fragment spreads counted one by one). */
export const GRAPHQL_MAX_ROOT_FIELDS = 20;
/** Aliased fields anywhere in the document. */
export const GRAPHQL_MAX_ALIASES = 50;
/** Items assumed in an embedded list (a contact's memory, a conversation's chats): they have no limit argument. */
export const NESTED_LIST_ITEMS = 10;
/** An export may write every row of a table (to a file, streamed): priced as 20,000 rows of one field. */
export const EXPORT_COST = 20_000;
/** Default rows of the list operations, as their resolvers apply them (entity-resolvers.ts). */
export const PAGINATE_DEFAULT_LIMIT = 5;
export const FIND_DEFAULT_LIMIT = 100;

type OperationKind = 'paginate' | 'find' | 'search' | 'findByIds' | 'export';

/** Root field name → what kind of list it returns, from the generated operation names. */
export function rootOperationKinds(operationNames: Record<string, Record<string, string>>): Map<string, OperationKind> {
  const kinds = new Map<string, OperationKind>();
  for (const names of Object.values(operationNames)) {
    for (const kind of ['paginate', 'find', 'search', 'findByIds', 'export'] as const) {
      if (names[kind]) kinds.set(names[kind], kind);
    }
  }
  return kinds;
}

function rowsAsked(limit: unknown, fallback: number): number {
  // An out-of-range limit is refused by the resolver; here it only has to price high enough.
  return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : fallback;
}

/**
 * Cost of one field: 1, plus, for a list, the rows it may return times (1 + the cost of what is
 * selected in each row). Rows are the `limit` argument (or its default) for find and paginate,
 * the number of ids for findByIds, the default for search, the largest page for the "all" lists, NESTED_LIST_ITEMS
 * for embedded lists. Introspection is priced per field: the schema is small and fixed.
 */
export function costEstimator(kinds: Map<string, OperationKind>): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    if (type.name.startsWith('__') || field.name.startsWith('__')) return 1 + childComplexity;
    const root = type.name === 'Query' || type.name === 'Mutation';
    const kind = root ? kinds.get(field.name) : undefined;
    switch (kind) {
      case 'export':
        return EXPORT_COST;
      case 'paginate':
        // The page's `items` is priced once per row here (see below); total/page/limit ride along.
        return 1 + rowsAsked(args.limit, PAGINATE_DEFAULT_LIMIT) * (1 + childComplexity);
      case 'find':
        return 1 + rowsAsked(args.limit, FIND_DEFAULT_LIMIT) * (1 + childComplexity);
      case 'search':
        return 1 + FIND_DEFAULT_LIMIT * (1 + childComplexity);
      case 'findByIds':
        return 1 + (Array.isArray(args.ids) ? args.ids.length : MAX_LIMIT) * (1 + childComplexity);
      default:
        break;
    }
    const listed = isListOfObjects(field.type);
    if (!listed) return 1 + childComplexity;
    // A page's items: already multiplied by the paginate field's limit.
    if (field.name === 'items' && type.name.endsWith('Page')) return childComplexity;
    // Root lists with no limit ("all" lists: rolesAll, tenantsAll) return every row: priced as the largest page.
    if (root) return 1 + MAX_LIMIT * (1 + childComplexity);
    return 1 + NESTED_LIST_ITEMS * childComplexity;
  };
}

/**
 * `[T!]!`-like with T an object type. By shape rather than graphql's isListType: mercurius and
 * the cost library may load graphql's CommonJS build while this module gets its ES build, and
 * graphql's type guards refuse types "from another module or realm".
 */
function isListOfObjects(type: GraphQLOutputType): boolean {
  const text = String(type);
  if (!text.startsWith('[')) return false;
  let named: unknown = type;
  while (named && typeof named === 'object' && 'ofType' in named && (named as { ofType?: unknown }).ofType) named = (named as { ofType: unknown }).ofType;
  return typeof (named as { getFields?: unknown }).getFields === 'function';
}

const refusedContexts = new WeakSet<ValidationContext>();

/**
 * Reports one limit refusal per request: mercurius answers 200 instead of 400 when a validation
 * fails with several errors, and one reason is clearer anyway.
 */
export function reportLimit(context: ValidationContext, error: GraphQLError): void {
  if (refusedContexts.has(context)) return;
  refusedContexts.add(context);
  context.reportError(error);
}

export function alreadyRefused(context: ValidationContext): boolean {
  return refusedContexts.has(context);
}

/** A refusal in the API's error shape (extensions carry status, message, i18nMessage). */
export function limitError(message: string, i18nMessage: string): GraphQLError {
  return new GraphQLError(message, { extensions: { status: 400, message, i18nMessage } });
}

export function tooCostlyError(max: number, actual: number): GraphQLError {
  return limitError(
    `Query too costly: it may read ${actual} field values (every row of every list, aliases included), at most ${max}; ask for fewer rows (limit) or fewer fields`,
    'error.graphql.tooCostly',
  );
}

/**
 * Caps the root fields of each operation (after expanding fragments: `{ ...F ...F }` counts F's
 * fields twice) and the aliases of the whole document, so a query cannot fan out into hundreds
 * of resolver calls however cheap each looks.
 */
export function fieldCountRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const countRootFields = (set: SelectionSetNode, active: Set<string>, total: { n: number }): void => {
    for (const selection of set.selections) {
      if (total.n > GRAPHQL_MAX_ROOT_FIELDS) return;
      if (selection.kind === Kind.FIELD) total.n += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) countRootFields(selection.selectionSet, active, total);
      else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // Unknown and cyclic fragments are refused by graphql's own rules.
        if (!fragment || active.has(name)) continue;
        active.add(name);
        countRootFields(fragment.selectionSet, active, total);
        active.delete(name);
      }
    }
  };
  let aliases = 0;
  return {
    OperationDefinition(node) {
      const total = { n: 0 };
      countRootFields(node.selectionSet, new Set(), total);
      if (total.n > GRAPHQL_MAX_ROOT_FIELDS) {
        reportLimit(
          context,
          limitError(
            `Too many root fields: an operation may select at most ${GRAPHQL_MAX_ROOT_FIELDS} (aliases and fragments counted one by one)`,
            'error.graphql.tooManyFields',
          ),
        );
      }
    },
    Field(node) {
      if (!node.alias) return;
      aliases += 1;
      if (aliases > GRAPHQL_MAX_ALIASES) {
        reportLimit(context, limitError(`Too many aliases: a query may use at most ${GRAPHQL_MAX_ALIASES}`, 'error.graphql.tooManyFields'));
      }
    },
  };
}
