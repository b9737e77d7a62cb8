import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { ClearKnowledgeAction, SearchKnowledgeAction, TrainKnowledgeAction } from './knowledge-row-actions.tsx';
import { TrainingStateCell } from './training-state-cell.tsx';

/**
 * Knowledge rows: the training column shows each base's last outcome; train and clear show their
 * progress and failures, search opens /knowledge/:id.
 */
export const knowledgeOverrides: EntityOverrides = {
  cells: { trainingState: TrainingStateCell },
  rowActions: {
    train: { component: TrainKnowledgeAction },
    clear: { component: ClearKnowledgeAction },
    search: { component: SearchKnowledgeAction },
  },
};
