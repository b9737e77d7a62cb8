import { createHmac } from 'node:crypto';
import type { Rng } from '../../helpers/prng.ts';

export const INJECTION_STRINGS = [
  `' OR '1'='1`,
  `'; DROP TABLE bot; --`,
  `" OR 1=1 --`,
  `1; SELECT * FROM user`,
  `') UNION SELECT password FROM user --`,
  `%' AND 1=1 AND '%'='`,
  `<script>window.__xss=1</script>`,
  `<img src=x onerror="window.__xss=1">`,
  `javascript:alert(1)`,
  `{{constructor.constructor('return process')()}}`,
  `\${process.exit(1)}`,
  `__proto__`,
  `../../../../etc/passwd`,
  `..\\..\\..\\windows\\win.ini`,
  `%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
  `\u0000`,
  `\uFFFF\uD800`,
  `😀`.repeat(50),
  `NaN`,
  `-1`,
  `1e309`,
  `null`,
  `true`,
  `*`,
  `"`,
  `;;;`,
  `|`,
];

export const BAD_IDS = [
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  "1' OR '1'='1",
  '0',
  '-1',
  '99999999999999999999999',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%00',
  '%E0%A4%A',
  '%FF%FE',
  'a'.repeat(5000),
  '%20',
  ',,,,',
  'x,y,../../z',
  '😀',
];

export function hugeString(bytes = 1024 * 1024): string {
  return 'x'.repeat(bytes);
}

export function hugeArray(items = 100_000): string[] {
  return Array.from({ length: items }, (_, i) => `item${i}`);
}

/** A JSON text nested `depth` levels (arrays or objects). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

export const INVALID_JSON_BODIES: (string | Buffer)[] = [
  '{',
  '{"name": }',
  "{'name': 'x'}",
  '{"name": "x",}',
  'undefined',
  '[1,2',
  '\u0000\u0001',
  '{"name":"x"}{"name":"y"}',
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"admin": true}}}',
  'null',
  '12345',
  '"just a string"',
  '[]',
  Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]),
];

export const WRONG_CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zzz', 'application/json; charset=latin1', 'image/png', ''];

/** A value of a type the schema does not expect. */
export function wrongTypeValue(rng: Rng, schemaType: unknown): unknown {
  const types = Array.isArray(schemaType) ? schemaType : [schemaType];
  const candidates: unknown[] = [
    12345, -1.5, true, false, null, 'a string', [], ['x', 1, null], {}, { nested: { deeper: true } }, 1e308, '',
    Number.MAX_SAFE_INTEGER + 2,
  ];
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);
  const wrong = candidates.filter((v) => !types.includes(typeOf(v)) && !(typeOf(v) === 'integer' && types.includes('number')));
  return rng.pick(wrong.length ? wrong : candidates);
}

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

/** Hand-built JWTs: alg none, a wrong key, garbage parts, claims the real key would never sign. */
export function tamperedTokens(secret: string, sub: string, validToken: string): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const sign = (header: object, payload: object, key: string) => {
    const head = base64url(JSON.stringify(header));
    const body = base64url(JSON.stringify(payload));
    const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${signature}`;
  };
  const claims = { sub, role: null, tenant: null, iss: 'forja', iat: now, exp: now + 3600 };
  const [vh, vp, vs] = validToken.split('.');
  const flipped = vs!.slice(0, -2) + (vs!.endsWith('AA') ? 'BB' : 'AA');
  const payloadAdmin = base64url(JSON.stringify({ ...JSON.parse(Buffer.from(vp!, 'base64url').toString()), sub: 'someone-else' }));
  return {
    algNone: `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.`,
    algNoneUpper: `${base64url(JSON.stringify({ alg: 'NONE', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.`,
    wrongKey: sign({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-secret'),
    hs512: sign({ alg: 'HS512', typ: 'JWT' }, claims, secret),
    flippedSignature: `${vh}.${vp}.${flipped}`,
    swappedPayload: `${vh}.${payloadAdmin}.${vs}`,
    expired: sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 3600 }, secret),
    futureIat: sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now + 86_400, exp: now + 90_000 }, secret),
    noExp: sign({ alg: 'HS256', typ: 'JWT' }, { sub, iss: 'forja', iat: now }, secret),
    wrongIssuer: sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, iss: 'evil' }, secret),
    unknownSub: sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: "x' OR '1'='1" }, secret),
    objectSub: sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: { $ne: null } }, secret),
    garbage: 'not.a.jwt',
    twoParts: 'abc.def',
    empty: '',
    huge: 'a'.repeat(16_000),
    binary: '\u00ff\u00fe',
    keyConfusion: sign({ alg: 'HS256', typ: 'JWT', kid: '../../../../dev/null' }, claims, ''),
  };
}
