import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { entities } from '../../server/generated/entities.ts';
import { ImportBatchChecks } from '../../server/entities/import-batch-checks.ts';
import { system } from '../../server/entities/system-context.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * Imports check refs and unique values per slice of rows (server/entities/import-batch-checks.ts)
 * instead of one query per row and field. The report must be exactly the row-by-row one: here the
 * same 5,000-row file is checked twice, once as it was (the batch lookups switched off, so every
 * check is the entity service's own per-row query) and once batched, and the errors compared.
 * Roles have both an array.ref (childRoles) and a unique field (name); the test server makes them
 * importable (they are not in the product).
 */
const ROWS = 5_000;
const STORED = 30;

let server: TestServer;
const storedIds: string[] = [];
beforeAll(async () => {
  const role = entities.role;
  server = await startTestServer({
    entities: { ...entities, role: { ...role, flags: { ...role.flags, importable: true }, import: { ...role.import, formats: ['JSON', 'CSV'] } } },
  });
  for (let i = 0; i < STORED; i++) {
    const record = await server.forja.service.create('role', system(), { name: `Stored ${i}` });
    storedIds.push(String(record._id));
  }
}, 120_000);
afterAll(async () => server?.close());

/** A file mixing good rows with names taken in the database or earlier in the file, bad refs and invalid names. */
function rows(): Record<string, unknown>[] {
  return Array.from({ length: ROWS }, (_, i) => {
    let name = `Row ${i}`;
    if (i % 9 === 0) name = `Stored ${i % STORED}`; // taken by a stored role
    else if (i % 13 === 0) name = `Dup ${Math.floor(i / 26)}`; // rows 26k and 26k + 13 share it: the second is taken by the first
    else if (i % 17 === 0) name = `lower ${i}`; // fails the pattern
    else if (i % 23 === 0) name = `STORED ${i % STORED}`; // differs in case only: free
    let childRoles: string[] = [];
    if (i % 5 === 0) childRoles = [`Missing ${i}`]; // neither an id nor a name
    else if (i % 7 === 0) childRoles = [storedIds[i % STORED]!, 'Stored 3']; // an id and a display value
    else if (i % 11 === 0) childRoles = [storedIds[(i + 1) % STORED]!, `${storedIds[0]}x`]; // an id and a near miss
    return { name, childRoles };
  });
}

async function importReport(content: string, batched: boolean) {
  const load = batched ? null : vi.spyOn(ImportBatchChecks.prototype, 'load').mockResolvedValue(undefined);
  const database = server.forja.database;
  const reads = [vi.spyOn(database, 'all'), vi.spyOn(database, 'read'), vi.spyOn(database, 'first')];
  try {
    const res = await server.upload('/api/roles/import?dryRun=true', { name: 'roles.json', content, type: 'application/json' });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    // The ref and unique lookups (the roles' hooks read child roles' permissions on their own).
    const lookups = reads.flatMap((spy) => spy.mock.calls).filter(([query]) => /^select "_id"(, "name")? from "roles" where/.test(query.sql)).length;
    return { report: res.body as { total: number; valid: number; invalid: number; errors: { row: number; field: string; reason: string }[] }, lookups };
  } finally {
    for (const spy of reads) spy.mockRestore();
    load?.mockRestore();
  }
}

describe('import: ref and unique checks per slice', () => {
  it('a 5,000-row import reports exactly the row-by-row errors, with far fewer queries', async () => {
    const content = JSON.stringify(rows());
    const perRow = await importReport(content, false);
    const batched = await importReport(content, true);

    expect(batched.report.total).toBe(ROWS);
    expect(batched.report.errors).toEqual(perRow.report.errors);
    expect(batched.report.invalid).toBe(perRow.report.invalid);
    expect(batched.report.valid).toBe(perRow.report.valid);

    // Each kind of problem is there, so the comparison is not between two empty lists (row = i + 1).
    const at = (row: number) => batched.report.errors.filter((e) => e.row === row).map((e) => `${e.field}:${e.reason}`);
    expect(at(19)).toEqual(['name:validation.unique']); // Stored 18, in the database
    expect(at(40)).toEqual(['name:validation.unique']); // Dup 1, also row 27's
    expect(at(27)).toEqual([]);
    expect(at(18)).toEqual(['name:validation.uppercase']);
    expect(at(6)).toEqual(['childRoles.0:validation.refNoMatch']);
    expect(at(12)).toEqual(['childRoles.1:validation.refNoMatch']);
    expect(at(8)).toEqual([]); // an id and a display value of stored roles
    expect(at(24)).toEqual([]); // STORED 23: differs in case only, free on both engines
    expect(batched.report.invalid).toBeGreaterThan(1_000);
    expect(batched.report.valid).toBeGreaterThan(1_000);

    // One lookup per slice and field instead of one per row: thousands of queries before, tens now.
    expect(perRow.lookups).toBeGreaterThan(ROWS / 2);
    expect(batched.lookups).toBeLessThan(50);
  }, 300_000);
});
