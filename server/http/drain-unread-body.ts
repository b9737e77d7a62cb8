import type { FastifyInstance } from 'fastify';

/**
 * A multipart request answered before its body was read to the end (wrong field, bad dir,
 * file over the limit, disk full) would leave the rest of the upload unread on a keep-alive
 * socket: busboy stops pulling, Node cannot discard it, and the client's next request on that
 * connection hangs until the server's headers timeout resets it (~70 s; found by tests/fuzz).
 * Once the answer is decided, the rest of the body is read and thrown away.
 */
export function drainUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    const raw = request.raw;
    if (!raw.readableEnded && !raw.destroyed && request.isMultipart()) {
      raw.unpipe();
      raw.resume();
    }
    return payload;
  });
}
