/** What a listening socket reports (Node's AddressInfo, and a cluster worker's `listening` address). */
export interface BoundAddress {
  address?: string | null;
  port: number;
}

const everyAddress = new Set(['0.0.0.0', '::', '']);

/**
 * The address the gateway can be reached at, as bound (HOST and PORT, the real port when PORT=0):
 * `http://127.0.0.1:3000` when bound to 127.0.0.1, and for a wildcard bind the local address a person
 * at this machine would open, with the bind beside it.
 */
export function servingAddress(bound: BoundAddress): string {
  const host = bound.address ?? '';
  if (everyAddress.has(host))
    return `http://localhost:${bound.port} (every address of this machine, ${host.includes(':') ? `[${host}]` : host || '0.0.0.0'}:${bound.port})`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound.port}`;
}
