import ipaddr from 'ipaddr.js';

/**
 * Whether a caller's address is allowed by an API key's lists. Empty lists allow everything.
 * Entries may be single addresses or CIDR ranges. IPv4-mapped IPv6 callers (::ffff:1.2.3.4, what
 * a dual-stack socket reports) are matched against the IPv4 list.
 */
export function isAddressAllowed(address: string, ipv4: readonly string[] = [], ipv6: readonly string[] = []): boolean {
  if (ipv4.length === 0 && ipv6.length === 0) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  const list = parsed.kind() === 'ipv4' ? ipv4 : ipv6;
  return list.some((entry) => matches(parsed, entry));
}

function matches(address: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  try {
    if (entry.includes('/')) {
      const range = ipaddr.parseCIDR(entry);
      return address.kind() === range[0].kind() && address.match(range);
    }
    const single = ipaddr.process(entry);
    return single.kind() === address.kind() && single.toNormalizedString() === address.toNormalizedString();
  } catch {
    return false;
  }
}
