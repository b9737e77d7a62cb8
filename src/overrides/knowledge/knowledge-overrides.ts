import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { ClearKnowledgeAction, SearchKnowledgeAction, TrainKnowledgeAction } from './knowledge-row-actions.tsx';

/** Knowledge rows: train and clear show their progress and failures, search opens /knowledge/:id. */
export const knowledgeOverrides: EntityOverrides = {
  rowActions: {
    train: { component: TrainKnowledgeAction },
    clear: { component: ClearKnowledgeAction },
    search: { component: SearchKnowledgeAction },
  },
};
