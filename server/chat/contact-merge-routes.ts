import type { FastifyInstance } from 'fastify';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import { callerOf } from '../operations/operation-caller.ts';
import type { Operation } from '../operations/define-operation.ts';
import type { ContactMergeInput, ContactMergeResult } from './contact-merge.ts';

/** POST <contact basePath>/:id/merge { into }: the REST adapter of the contact merge (contact-merge.ts). */
export function registerContactMergeRoute(app: FastifyInstance, contact: EntityModel, merge: Operation<ContactMergeInput, ContactMergeResult>): void {
  const [, remove] = merge.access as readonly RoutePermission[];
  // Documentation only (no body/params schema: the operation's own checks give the error messages).
  const schema = {
    tags: [contact.typeName],
    summary: 'Merge a contact into another',
    description: `Body { "into": "<contact id>" }. Moves every conversation of :id to "into", appends its memory (exact duplicates skipped; over the limit is a 400 and nothing changes) and deletes :id. Also requires \`${remove.permission}\`.`,
  };
  app.post<{ Params: { id: string } }>(`${contact.api.basePath}/:id/merge`, { config: { operation: merge }, schema }, async (request) =>
    merge(callerOf(request), { id: request.params.id, body: request.body }),
  );
}
