/**
 * The seeded Admin role (server/seed: the read-only role named Admin) stays read-only for ever;
 * the server refuses to unlock it, so the console does not offer to.
 */
export function isSeededAdminRole(record: Record<string, unknown>): boolean {
  return record.name === 'Admin' && record.readonly === true;
}
