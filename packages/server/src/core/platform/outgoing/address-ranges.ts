import { BlockList, isIP } from 'node:net';

/**
 * Addresses no user-supplied URL may reach unless the operator allows them: loopback, private
 * networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, "this network"
 * (0.0.0.0 reaches the local host on Linux), benchmarking, multicast and reserved blocks. IPv4-mapped
 * IPv6 addresses (::ffff:127.0.0.1) match the IPv4 rules: BlockList compares them as IPv4.
 */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // Unspecified, loopback and the old IPv4-compatible form (::127.0.0.1).
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv6');

/** An address as URL.hostname or a resolver gives it: IPv6 may come in brackets. */
export function bareAddress(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function familyOf(address: string): 'ipv4' | 'ipv6' | undefined {
  const family = isIP(address);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : undefined;
}

export function isPrivateAddress(address: string): boolean {
  const family = familyOf(address);
  // Not an address at all: treat as private, so a resolver's odd answer never slips through.
  return family === undefined || privateRanges.check(address, family);
}

/** An operator's IP list (single addresses or CIDR blocks, both families) and the entries it could not read. */
export interface AddressList {
  readonly entries: number;
  has(address: string): boolean;
}

/** Parses one entry: `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`. Undefined when it is not one. */
function parseEntry(entry: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [network = '', prefix, extra] = entry.trim().split('/');
  const family = familyOf(network);
  if (!family || extra !== undefined) return undefined;
  const widest = family === 'ipv4' ? 32 : 128;
  if (prefix === undefined) return { network, prefix: widest, family };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > widest) return undefined;
  return { network, prefix: Number(prefix), family };
}

export function isAddressEntry(entry: string): boolean {
  return parseEntry(entry) !== undefined;
}

/** Entries that do not parse are skipped (the settings form refuses them before they are saved). */
export function addressList(entries: readonly string[]): AddressList {
  const list = new BlockList();
  let count = 0;
  for (const entry of entries) {
    const parsed = parseEntry(entry);
    if (!parsed) continue;
    list.addSubnet(parsed.network, parsed.prefix, parsed.family);
    count += 1;
  }
  return {
    entries: count,
    has(address) {
      const family = familyOf(address);
      return family !== undefined && list.check(address, family);
    },
  };
}
