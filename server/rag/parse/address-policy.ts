import ipaddr from 'ipaddr.js';

/**
 * Whether a resolved address may be fetched on a user's behalf. Only ipaddr.js's "unicast" range
 * (public addresses) passes: loopback, private (10/8, 172.16/12, 192.168/16), link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT, unique-local IPv6, multicast, broadcast,
 * unspecified, reserved and the IPv6 forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d
 * is unwrapped first; 6to4, Teredo and NAT64 are refused) all fail. An allow list, so ranges added
 * to ipaddr.js later are refused until they are judged.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** An IP literal as written in a URL host (IPv6 in brackets), or null for a host name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
