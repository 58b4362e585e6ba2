import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Role, UserStatus } from '@switchboard/contracts';
import type { AppContext } from '../app-context.ts';
import { insertReturningId } from '../core/db/insert-id.ts';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../core/config/config.ts';
import { systemClock, type Clock } from '../core/platform/clock.ts';
import { createLogger } from '../core/platform/logger.ts';
import { openDependencies } from '../open-dependencies.ts';
import { hashPassword } from '../core/platform/password-hasher.ts';
import { randomAlphanumeric } from '../core/platform/random.ts';
import type { CreatedTestDatabase, TestDatabase } from './test-databases.ts';

/**
 * new-api's IP limits are on by default (360 /api requests per 3 minutes from one address, 20 logins
 * per 20 minutes): tests send far more from 127.0.0.1. Tests of the limits turn them back on in `env`.
 */
export const ipRateLimitsOff: Record<string, string> = {
  GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
  GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
  CRITICAL_RATE_LIMIT_ENABLE: 'false',
  SEARCH_RATE_LIMIT_ENABLE: 'false',
};

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  /** Closes the app, the pools and drops the database. */
  close(): Promise<void>;
}

/**
 * The real application on a database of its own of the given engine, cloned from the run's migrated
 * template, with the root user created at start. `env` adds environment variables
 * (REDIS_CONN_STRING, INITIAL_ROOT_PASSWORD, …).
 */
export async function createTestApp(database: TestDatabase, env: Record<string, string> = {}, clock: Clock = systemClock): Promise<TestApp> {
  return startTestApp(await database.createMigrated(), env, clock);
}

/** The real application on `created`, which it migrates as any start does; `close` drops it too. */
export async function startTestApp(created: CreatedTestDatabase, env: Record<string, string> = {}, clock: Clock = systemClock): Promise<TestApp> {
  // Each app its own quota journal folder: never the repository's data/ (PostgreSQL and MySQL runs).
  const journalFolder = mkdtempSync(join(tmpdir(), 'sb-journal-'));
  const config = loadConfig({
    SQL_DSN: created.sqlDsn,
    SQLITE_PATH: created.sqlitePath,
    SESSION_SECRET: 'test-session-secret',
    LOG_LEVEL: 'silent',
    QUOTA_JOURNAL_DIR: journalFolder,
    ...ipRateLimitsOff,
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const dependencies = await openDependencies(config, logger, clock);
  const app = await buildApp(dependencies);
  await app.ready();
  return {
    app,
    context: app.switchboard.context,
    config,
    async close() {
      await app.close();
      await dependencies.close();
      await created.drop();
      rmSync(journalFolder, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  id: number;
  username: string;
  password: string;
  /** Headers that authenticate as this user on /api (signed session cookie + New-Api-User). */
  headers: Record<string, string>;
}

/** Inserts a user straight into the database and opens a session for it. */
export async function createTestUser(
  testApp: TestApp,
  fields: { username?: string; role?: number; status?: number; quota?: number; group?: string; password?: string } = {},
): Promise<TestUser> {
  const { db } = testApp.context.database;
  const username = fields.username ?? `u${randomAlphanumeric(8).toLowerCase()}`;
  const password = fields.password ?? 'password123';
  const id = await insertReturningId(
    db.insertInto('users').values({
      username,
      password: await hashPassword(password),
      display_name: username,
      role: fields.role ?? Role.common,
      status: fields.status ?? UserStatus.enabled,
      email: '',
      github_id: '',
      wechat_id: '',
      telegram_id: '',
      linux_do_id: '',
      access_token: null,
      quota: fields.quota ?? 0,
      used_quota: 0,
      request_count: 0,
      group: fields.group ?? 'default',
      aff_code: randomAlphanumeric(6),
      aff_count: 0,
      aff_quota: 0,
      aff_history: 0,
      inviter_id: 0,
      setting: '',
      remark: '',
      created_at: testApp.context.clock.unixSeconds(),
      last_login_at: 0,
      deleted_at: null,
    }),
    testApp.context.database.dialect,
  );
  return { id, username, password, headers: await sessionHeaders(testApp, id) };
}

/** A valid session for an existing user, as the headers a logged-in console sends. */
export async function sessionHeaders(testApp: TestApp, userId: number): Promise<Record<string, string>> {
  const sessionId = randomBytes(24).toString('base64url');
  const now = testApp.context.clock.unixSeconds();
  await testApp.context.authRepository.insertSession({ id: sessionId, userId, createdAt: now, expiresAt: now + 3600, ip: '127.0.0.1' });
  return { cookie: `session=${testApp.app.signCookie(sessionId)}`, 'new-api-user': String(userId) };
}

/** The root user every fresh database gets. */
export async function rootUser(testApp: TestApp): Promise<TestUser> {
  const row = await testApp.context.database.db.selectFrom('users').select(['id', 'username']).where('username', '=', 'root').executeTakeFirstOrThrow();
  return { id: row.id, username: row.username, password: '123456', headers: await sessionHeaders(testApp, row.id) };
}
