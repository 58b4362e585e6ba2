import { describe, expect, it } from 'vitest';
import { ClientPool } from './client-pool.ts';

/** A client that records its own destruction. */
function client(name: string, destroyed: string[]) {
  return { name, destroy: () => destroyed.push(name) };
}

describe('ClientPool', () => {
  it('reuses a client per key and destroys the least recently used idle one to make room', () => {
    const destroyed: string[] = [];
    const pool = new ClientPool<ReturnType<typeof client>>(2);
    const a = pool.acquire('a', () => client('a', destroyed));
    a.release();
    pool.acquire('b', () => client('b', destroyed)).release();
    expect(pool.acquire('a', () => client('a2', destroyed)).client).toBe(a.client);
    pool.acquire('c', () => client('c', destroyed)).release();
    expect(destroyed).toEqual(['b']);
    expect(pool.size).toBe(2);
  });

  it('grows past its size while every client is busy and shrinks back as requests end', () => {
    const destroyed: string[] = [];
    const pool = new ClientPool<ReturnType<typeof client>>(1);
    const first = pool.acquire('a', () => client('a', destroyed));
    const again = pool.acquire('a', () => client('a2', destroyed));
    const second = pool.acquire('b', () => client('b', destroyed));
    expect(pool.size).toBe(2);
    expect(destroyed).toEqual([]);
    first.release();
    first.release();
    expect(destroyed).toEqual([]);
    again.release();
    expect(destroyed).toEqual(['a']);
    second.release();
    expect(pool.size).toBe(1);
    expect(destroyed).toEqual(['a']);
  });
});
