import { BlockList, isIP } from 'node:net';

/**
 * A token's `allow_ips`: addresses and CIDR ranges, one per line (commas accepted too). Undefined
 * when the list is empty, which allows every address.
 */
export function parseAllowList(text: string | null): BlockList | undefined {
  const entries = (text ?? '')
    .split(/[\n,\r]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else if (/^\d+$/.test(prefix)) list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** Whether a caller address passes the list (IPv4-mapped IPv6 addresses are read as IPv4). */
export function isAllowed(list: BlockList | undefined, address: string): boolean {
  if (!list) return true;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}
