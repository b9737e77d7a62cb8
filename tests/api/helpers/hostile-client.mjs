// A client in a process of its own, so building and sending hostile bodies costs the server's
// event loop nothing (tests/api/bounded-parsing.test.ts). argv: baseUrl, token, clients.
// Sends until its parent disconnects; reports each answer's status to the parent.
const [baseUrl, token, clientsArg, only] = process.argv.slice(2);
const manyKeys = (keys) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;
const HOSTILE = manyKeys(300_000);
const wideHeader = `${Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(';')}\n`;
const bigCell = `name;description\nCelda;${'x'.repeat(24 * 1024 * 1024)}\n`;
const json = (path, auth) => () =>
  fetch(baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${token}` } : {}) }, body: HOSTILE });
const csv = (name, content) => () => {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/csv' }), name);
  return fetch(`${baseUrl}/api/bots/import?dryRun=true`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
};
const allKinds = [
  json('/api/google/logout'),
  json('/api/auth/login'),
  json('/api/chat/resume'),
  json('/graphql'),
  json('/api/bots', true),
  csv('wide.csv', wideHeader),
  csv('cell.csv', bigCell),
];
// Optional 4th argument: the indexes of the kinds to send (comma-separated), to find which one stalls.
const kinds = only ? only.split(',').map((i) => allKinds[Number(i)]) : allKinds;
let running = true;
process.on('disconnect', () => (running = false));
await Promise.all(
  Array.from({ length: Number(clientsArg) }, async (_, client) => {
    for (let i = client; running; i++) {
      try {
        const res = await kinds[i % kinds.length]();
        await res.arrayBuffer();
        if (running && process.connected) process.send?.({ client, kind: i % kinds.length, status: res.status });
      } catch (error) {
        if (running && process.connected) process.send?.({ client, kind: i % kinds.length, error: String(error) });
      }
    }
  }),
);
process.exit(0);
