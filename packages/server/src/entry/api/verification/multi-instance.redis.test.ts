import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCatcher } from './testing/smtp-catcher.ts';
import { startTwoInstances, type TwoInstances } from '../../../testing/two-instances.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Two instances sharing one database and one Redis, as in a scaled-out deployment. */
describe.runIf(redisUrl)('accounts across instances through Redis', () => {
  let instances: TwoInstances;
  let apps: readonly FastifyInstance[] = [];
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  const suffix = Date.now().toString(36);
  // A fresh client address per run: per-address counters live in the shared Redis for minutes.
  const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    instances = await startTwoInstances(redisUrl ?? '');
    apps = instances.apps;
    const first = apps[0]?.switchboard.context.options;
    for (const [key, value] of Object.entries({ SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), EmailVerificationEnabled: 'true' }))
      await first?.set(key, value);
  });

  afterAll(async () => {
    await instances.close();
    await smtp.close();
  });

  const pair = () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps missing');
    return { first, second };
  };

  it('verifies on one instance a code mailed by the other, and only once', async () => {
    const { first, second } = pair();
    const email = `multi-${suffix}@example.com`;
    expect((await first.inject({ method: 'GET', url: `/api/verification?email=${email}`, remoteAddress })).json().success).toBe(true);
    const resend = await second.inject({ method: 'GET', url: `/api/verification?email=${email}`, remoteAddress });
    expect(resend.statusCode).toBe(429);
    const code = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo(email)?.text ?? '')?.[1] ?? '';
    const body = { username: `m${suffix}`.slice(0, 12), password: 'password123', email, verification_code: code };
    expect((await second.inject({ method: 'POST', url: '/api/user/register', payload: body, remoteAddress })).json()).toEqual({ success: true, message: '' });
    const reuse = await first.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { ...body, username: `n${suffix}`.slice(0, 12), email: `other-${suffix}@example.com` },
    });
    expect(reuse.json().message).toBe('验证码错误或已过期');
  });

  it('applies a setting saved through the API on the other instance within a second', async () => {
    const { first, second } = pair();
    const login = await first.inject({ method: 'POST', url: '/api/user/login', payload: { username: 'root', password: '123456' } });
    const cookie = login.cookies.find((candidate) => candidate.name === 'session');
    const headers = { cookie: `session=${cookie?.value ?? ''}`, 'new-api-user': String(login.json().data.id) };
    const name = `Shared ${suffix}`;
    const secondOptions = second.switchboard.context.options;
    const arrived = new Promise<void>((resolve) => secondOptions.onChange(() => secondOptions.get('SystemName') === name && resolve()));
    expect((await first.inject({ method: 'PUT', url: '/api/option/', headers, payload: { key: 'SystemName', value: name } })).json().success).toBe(true);
    // SYNC_FREQUENCY is an hour here, so only the change bus can bring the value over.
    await arrived;
    expect((await second.inject({ method: 'GET', url: '/api/status' })).json().data.system_name).toBe(name);
  });

  it('counts failed logins across instances', async () => {
    const { first, second } = pair();
    const username = `nobody-${suffix}`;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const app = attempt % 2 === 0 ? first : second;
      expect((await app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password: 'wrong-password' }, remoteAddress })).statusCode).toBe(
        200,
      );
    }
    expect((await first.inject({ method: 'POST', url: '/api/user/login', payload: { username, password: 'wrong-password' }, remoteAddress })).statusCode).toBe(
      429,
    );
    expect((await second.inject({ method: 'POST', url: '/api/user/login', payload: { username, password: 'wrong-password' }, remoteAddress })).statusCode).toBe(
      429,
    );
  });
});
