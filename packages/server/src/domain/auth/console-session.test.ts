import type { FastifyRequest } from 'fastify';
import { Role, UserStatus } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { refuseConsoleCaller } from './console-session.ts';
import type { CurrentUser } from './current-user.ts';

const alice: CurrentUser = { id: 7, username: 'alice', displayName: 'Alice', role: Role.common, status: UserStatus.enabled, group: 'default' };

function withUserHeader(value?: string): FastifyRequest {
  return { headers: value === undefined ? {} : { 'new-api-user': value } } as FastifyRequest;
}

describe('the guard of a logged-in console caller', () => {
  it('lets an enabled user through when New-Api-User names them', () => {
    expect(refuseConsoleCaller(withUserHeader('7'), alice)).toBeUndefined();
  });

  it('refuses a request without the header, or with an empty one (a cross-site request cannot set it)', () => {
    expect(refuseConsoleCaller(withUserHeader(), alice)).toBe('user-header-missing');
    expect(refuseConsoleCaller(withUserHeader(''), alice)).toBe('user-header-missing');
  });

  it("refuses a header naming someone else, before looking at the caller's status", () => {
    expect(refuseConsoleCaller(withUserHeader('8'), alice)).toBe('user-mismatch');
    expect(refuseConsoleCaller(withUserHeader('8'), { ...alice, status: UserStatus.disabled })).toBe('user-mismatch');
  });

  it('refuses a user who is not enabled', () => {
    expect(refuseConsoleCaller(withUserHeader('7'), { ...alice, status: UserStatus.disabled })).toBe('banned');
    expect(refuseConsoleCaller(withUserHeader('7'), { ...alice, status: UserStatus.locked })).toBe('banned');
  });
});
