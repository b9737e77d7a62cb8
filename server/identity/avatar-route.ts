import type { FastifyInstance } from 'fastify';
import { readUploadedFile } from '../files/read-uploaded-file.ts';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from './identity-operations.ts';

/** POST /api/users/avatar (multipart, field `file`): the REST adapter of the avatar operation. */
export function registerAvatarRoute(app: FastifyInstance, identity: IdentityOperations): void {
  const { setAvatar } = identity;
  // The file is read only once the operation has admitted the caller; the shared reader answers
  // 415 (not multipart), 400 (no file field, malformed body) and 413.
  app.post('/api/users/avatar', { config: { operation: setAvatar } }, async (request) => setAvatar(callerOf(request), { read: () => readUploadedFile(request) }));
}
