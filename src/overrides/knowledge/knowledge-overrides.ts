import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { ClearKnowledgeAction, ContentKnowledgeAction, SearchKnowledgeAction, TrainKnowledgeAction } from './knowledge-row-actions.tsx';
import { TrainingStateCell } from './training-state-cell.tsx';

/**
 * Knowledge rows: the training column shows each base's last outcome; train and clear show their
 * progress and failures, content and search open the base's page /knowledge/:id.
 */
export const knowledgeOverrides: EntityOverrides = {
  cells: { trainingState: TrainingStateCell },
  rowActions: {
    content: { component: ContentKnowledgeAction },
    train: { component: TrainKnowledgeAction },
    clear: { component: ClearKnowledgeAction },
    search: { component: SearchKnowledgeAction },
  },
};
