import type { FilterInput } from '../../runtime/clients/queries.ts';
import { mayDo, type EntityAction, type EntityPermissionNames } from '../../contract/permissions/entity-access.ts';

/** The path of a fresh install, in order (issue 19): base, content, bot, chat, share. */
export type StartStepName = 'createKnowledge' | 'addContent' | 'createBot' | 'tryChat' | 'share';

/** One count the checklist asks the API for (a paginate with limit 1: only `total` is read). */
export interface StartCount {
  entity: 'knowledge' | 'bot' | 'conversation' | 'contact';
  filters?: FilterInput[];
}

export interface StartStepDefinition {
  name: StartStepName;
  /** What the user must be allowed to do for the step to show (acting and counting). */
  needs: ReadonlyArray<{ entity: string; action: EntityAction }>;
  count: StartCount;
  /** Done once the count reaches this. */
  atLeast: number;
}

export const START_STEPS: readonly StartStepDefinition[] = [
  { name: 'createKnowledge', needs: [{ entity: 'knowledge', action: 'create' }], count: { entity: 'knowledge' }, atLeast: 1 },
  {
    name: 'addContent',
    needs: [{ entity: 'knowledge', action: 'update' }, { entity: 'knowledgesource', action: 'create' }],
    // Trained with something in it: the index holds the added content.
    count: { entity: 'knowledge', filters: [{ field: 'trainingState', operator: 'in', value: ['trained', 'warning'] }] },
    atLeast: 1,
  },
  { name: 'createBot', needs: [{ entity: 'bot', action: 'create' }], count: { entity: 'bot' }, atLeast: 1 },
  { name: 'tryChat', needs: [{ entity: 'bot', action: 'view' }, { entity: 'conversation', action: 'view' }], count: { entity: 'conversation' }, atLeast: 1 },
  // Nothing records a share itself; a second visitor (a contact besides the one trying the chat) shows it worked.
  { name: 'share', needs: [{ entity: 'bot', action: 'view' }, { entity: 'contact', action: 'view' }], count: { entity: 'contact' }, atLeast: 2 },
];

type Permissions = Readonly<Record<string, { permissions: EntityPermissionNames } | undefined>>;

/** The steps this user may take: one whose entity or action they lack is hidden, and never counted. */
export function visibleStartSteps(can: (permission: string) => boolean, entities: Permissions): StartStepDefinition[] {
  const may = (entity: string, action: EntityAction) => {
    const model = entities[entity];
    return !!model && mayDo(can, model.permissions, action);
  };
  // Counting reads the entity's list: without view the server would refuse it (403).
  return START_STEPS.filter((step) => step.needs.every(({ entity, action }) => may(entity, action)) && may(step.count.entity, 'view'));
}

/**
 * Where each step's button leads, given the first knowledge base and bot (when there are); null:
 * nothing to open yet (the chat and its QR need a bot: the "Create a bot" step leads there).
 */
export function startStepLink(name: StartStepName, first: { knowledgeId: string | null; botId: string | null }): { to: string; external: boolean } | null {
  const at = (id: string) => encodeURIComponent(id);
  switch (name) {
    case 'createKnowledge':
      return { to: '/crud/knowledge', external: false };
    case 'addContent':
      return { to: first.knowledgeId ? `/knowledge/${at(first.knowledgeId)}` : '/crud/knowledge', external: false };
    case 'createBot':
      return { to: '/crud/bot', external: false };
    case 'tryChat':
      return first.botId ? { to: `/chat/${at(first.botId)}`, external: true } : null;
    case 'share':
      return first.botId ? { to: `/chat/qr/${at(first.botId)}`, external: true } : null;
  }
}
