import { describe, expect, it } from 'vitest';
import { ipLiteral, isPublicAddress } from '../../../server/rag/parse/address-policy.ts';

// Every way of writing a loopback, private, link-local (cloud metadata) or otherwise internal
// address that a resolver or a URL may hand the fetcher (issue 16: `::7f00:1` passed).
const REFUSED = [
  // IPv4 loopback, private, link-local, CGNAT, unspecified, broadcast, reserved, benchmarking
  '127.0.0.1', '127.1', '0x7f.1', '0x7f000001', '2130706433', '017700000001', '127.255.255.254',
  '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255',
  '192.0.0.1', '192.0.2.1', '198.18.0.1', '240.0.0.1', '224.0.0.1',
  // IPv6 loopback, unspecified, link-local (with zone), unique-local, site-local, multicast, documentation
  '::1', '::', '0:0:0:0:0:0:0:1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'fec0::1', 'ff02::1', '2001:db8::1',
  // IPv4-compatible (deprecated ::/96), every spelling
  '::7f00:1', '::127.0.0.1', '0:0:0:0:0:0:7f00:1', '::0:7f00:1', '::a9fe:a9fe', '::169.254.169.254', '::a00:1', '::c0a8:101', '::1:7f00:1',
  // IPv4-mapped and SIIT
  '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:7F00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:0:7f00:1', '::ffff:0:127.0.0.1',
  // NAT64, 6to4, Teredo, discard, ORCHID, segment routing, other reserved space
  '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b:1::a00:1', '2002:7f00:1::', '2001::7f00:1', '100::1', '2001:20::1', '5f00::1', '3fff::1',
  // not addresses at all
  '', 'localhost', '[::1]', '::ffff:999.0.0.1', '1.2.3.4.5', 'not-an-ip',
];

const ALLOWED = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '::ffff:8.8.8.8', '::ffff:808:808', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'];

describe('isPublicAddress', () => {
  it.each(REFUSED)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(ALLOWED)('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('a bracketed URL host is judged by its literal', () => {
    expect(ipLiteral('[::7f00:1]')).toBe('::7f00:1');
    expect(isPublicAddress(ipLiteral('[::7f00:1]')!)).toBe(false);
    expect(ipLiteral('example.com')).toBeNull();
  });
});
