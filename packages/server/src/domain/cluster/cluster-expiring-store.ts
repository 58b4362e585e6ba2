import type { ExpiringStore } from '../../core/platform/expiring-store.ts';
import type { StoreOperation } from './cluster-messages.ts';
import type { PrimaryLink } from './primary-link.ts';

/**
 * Short-lived values of a worker without Redis, kept by the primary: a login challenge made by one
 * worker is answered on another, a mail code is used once, and failure counters count every attempt
 * of the machine. Each call is one IPC round trip; none is on the relay's path.
 */
export function createClusterExpiringStore(link: PrimaryLink): ExpiringStore {
  const call = (op: StoreOperation, ...args: (string | number)[]) => link.request((id) => ({ sb: 'store', id, op, args }));
  return {
    get: async (key) => (await call('get', key)) as string | undefined,
    set: async (key, value, ttlSeconds) => void (await call('set', key, value, ttlSeconds)),
    setIfAbsent: async (key, value, ttlSeconds) => (await call('setIfAbsent', key, value, ttlSeconds)) as boolean,
    take: async (key) => (await call('take', key)) as string | undefined,
    delete: async (key) => void (await call('delete', key)),
    increment: async (key, ttlSeconds) => (await call('increment', key, ttlSeconds)) as number,
    decrement: async (key) => (await call('decrement', key)) as number,
  };
}
