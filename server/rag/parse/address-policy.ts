import ipaddr from 'ipaddr.js';

/** IANA's global unicast block: the only IPv6 space that holds public hosts. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Whether a resolved address may be fetched on a user's behalf. Only ipaddr.js's "unicast" range
 * (public addresses) passes: loopback, private (10/8, 172.16/12, 192.168/16), link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, unique-local IPv6, multicast, broadcast,
 * unspecified, reserved and the IPv6 forms that embed an IPv4 address all fail. IPv4-mapped
 * (::ffff:a.b.c.d) is unwrapped first and judged as IPv4; any other IPv6 must also lie in the
 * global unicast block 2000::/3, which refuses the deprecated IPv4-compatible form (`::7f00:1`,
 * `::127.0.0.1` = 127.0.0.1 on some stacks) and everything else in ::/8, site-local fec0::/10,
 * SIIT ::ffff:0:a.b.c.d, and NAT64 64:ff9b::/96, whose ranges ipaddr.js may call "unicast".
 * 6to4 and Teredo are refused by their ranges. An allow list, so ranges added to ipaddr.js later
 * are refused until they are judged.
 */
export function isPublicAddress(address: string): boolean {
  if (typeof address !== 'string' || !ipaddr.isValid(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

/** An IP literal as written in a URL host (IPv6 in brackets), or null for a host name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
