import { describe, expect, it } from 'vitest';
import { servingAddress } from './serving-address.ts';

describe('serving address', () => {
  it('names the address bound to, not localhost, when HOST is one address', () => {
    expect(servingAddress({ address: '127.0.0.1', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(servingAddress({ address: '::1', port: 8080 })).toBe('http://[::1]:8080');
    expect(servingAddress({ address: '192.168.1.20', port: 3000 })).toBe('http://192.168.1.20:3000');
  });

  it('gives the local address to open and the wildcard bind beside it', () => {
    expect(servingAddress({ address: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000 (every address of this machine, 0.0.0.0:3000)');
    expect(servingAddress({ address: '::', port: 41234 })).toBe('http://localhost:41234 (every address of this machine, [::]:41234)');
  });
});
