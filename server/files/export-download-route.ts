import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { EXPORTS_URL_PREFIX, downloadName, type ExportFiles } from './export-files.ts';

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * GET /files/exports/:name?expires&user&signature: an export file, as an attachment, to whoever
 * holds a valid link (the route is public: the signed link is the credential, because a plain
 * <a href> download sends no bearer token). More specific than GET /files/*, which never serves
 * the exports folder.
 */
export function registerExportDownloadRoute(app: FastifyInstance, exports: ExportFiles): void {
  app.get<{ Params: { name: string } }>(`${EXPORTS_URL_PREFIX}:name`, async (request, reply) => {
    const name = request.params.name;
    const file = await exports.verify(name, (request.query ?? {}) as Record<string, unknown>);
    const stat = await fs.promises.stat(file);
    const extension = name.split('.').pop() ?? '';
    reply.header('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
    reply.header('Content-Length', String(stat.size));
    reply.header('Content-Disposition', `attachment; filename="${downloadName(name, stat.mtime)}"`);
    // Personal data (users' e-mails and phones): never kept by a browser or proxy cache.
    reply.header('Cache-Control', 'private, no-store');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
    reply.header('Referrer-Policy', 'no-referrer');
    return reply.send(fs.createReadStream(file));
  });
}
