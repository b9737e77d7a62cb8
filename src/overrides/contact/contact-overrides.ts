import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { MergeContactAction } from './merge-contact-action.tsx';

/** Contacts: merge an unverified contact into the real one (issue 20). */
export const contactOverrides: EntityOverrides = {
  rowActions: { merge: { component: MergeContactAction } },
};
