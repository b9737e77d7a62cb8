import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, readTrustProxy } from '../../server/config.ts';

/** Issue 31 item 4: TRUST_PROXY takes addresses, CIDRs or a hop count, and refuses `true`. */
describe('TRUST_PROXY', () => {
  const read = (value: string) => readTrustProxy({ TRUST_PROXY: value });

  it('unset, empty or false: no proxy trusted', () => {
    for (const value of ['', '  ', 'false', 'FALSE']) expect(read(value)).toBe(false);
    expect(readTrustProxy({})).toBe(false);
  });

  it('true is refused at start, saying why and what to set instead', () => {
    for (const value of ['true', 'TRUE', ' True ']) {
      expect(() => read(value)).toThrow(/TRUST_PROXY=true is refused: it trusts every X-Forwarded-For hop.*IP allow lists and per-IP rate limits.*TRUST_PROXY=127\.0\.0\.1/);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true is refused/);
  });

  it('addresses and CIDRs, comma-separated, IPv4 and IPv6', () => {
    expect(read('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(read('10.0.0.0/8, 192.168.1.5,::1')).toEqual(['10.0.0.0/8', '192.168.1.5', '::1']);
    expect(read('fd00::/8,loopback')).toEqual(['fd00::/8', 'loopback']);
    expect(read('10.0.0.0/255.0.0.0')).toEqual(['10.0.0.0/255.0.0.0']);
  });

  it('a hop count between 1 and 10', () => {
    expect(read('1')).toBe(1);
    expect(read('3')).toBe(3);
    for (const value of ['0', '11', '99']) expect(() => read(value)).toThrow(/hop count must be between 1 and 10/);
  });

  it('anything else is refused, naming the entries that are not addresses', () => {
    for (const [value, named] of [
      ['yes', '"yes"'],
      ['127.0.0.1,nginx', '"nginx"'],
      ['10.0.0.0/33', '"10.0.0.0/33"'],
      ['::1/129', '"::1/129"'],
      ['300.1.1.1', '"300.1.1.1"'],
      ['*', '"*"'],
    ]) {
      expect(() => read(value), value).toThrow(new RegExp(`IP addresses or CIDRs.*not an address: ${named.replace(/[.*/]/g, '\\$&')}`));
    }
  });

  it("README's nginx example sets X-Forwarded-For from the address nginx saw, and offers no `true`", () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(readme).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(readme).not.toContain('$proxy_add_x_forwarded_for');
    expect(readme).not.toMatch(/TRUST_PROXY=true(?! is refused)/);
  });
});
