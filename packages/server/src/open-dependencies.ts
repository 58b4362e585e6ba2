import type { AppDependencies } from './app-context.ts';
import type { Config } from './core/config/config.ts';
import { migrateLogDatabase, migrateMainDatabase } from './core/db/migrate.ts';
import { ensureRootUser } from './domain/bootstrap/ensure-root-user.ts';
import { RootUserRepository } from './domain/bootstrap/root-user.repository.ts';
import { createClusterChangeBus } from './domain/cluster/cluster-change-bus.ts';
import { PrimaryBatchWriter } from './domain/cluster/primary-batch-writer.ts';
import { PrimaryLink } from './domain/cluster/primary-link.ts';
import { createLocalChangeBus, type ChangeBus } from './core/platform/change-bus.ts';
import { systemClock, type Clock } from './core/platform/clock.ts';
import { openDatabase, type BatchWriterFor, type DatabaseHandle } from './core/platform/database.ts';
import type { Logger } from './core/platform/logger.ts';
import { connectRedis, type Redis } from './core/platform/redis.ts';
import { createRedisChangeBus } from './core/platform/redis-change-bus.ts';

export interface OpenedDependencies extends AppDependencies {
  /** Closes pools and connections; call after the app has closed and flushed. */
  close(): Promise<void>;
}

/** How the databases' opening is run: at once (tests), or again and again while they cannot be reached (serve-process.ts). */
export type DatabaseOpening = <T>(open: () => Promise<T>) => Promise<T>;

interface OpenedDatabases {
  readonly database: DatabaseHandle;
  readonly logDatabase: DatabaseHandle;
  close(): Promise<void>;
}

/** The main and log databases, migrated, with the root user; everything closed again when a step fails. */
async function openDatabases(config: Config, logger: Logger, clock: Clock): Promise<OpenedDatabases> {
  // A worker of several (WORKERS) hands its SQLite batches to the primary's one writer per file.
  const link = PrimaryLink.get();
  const batchWriterFor: BatchWriterFor | undefined = link ? (path) => new PrimaryBatchWriter(link, path) : undefined;
  const database = await openDatabase(config.sqlDsn, config.sqlitePath, undefined, batchWriterFor);
  let logDatabase: DatabaseHandle = database;
  const close = async () => {
    if (logDatabase !== database) await logDatabase.close().catch(() => undefined);
    await database.close().catch(() => undefined);
  };
  try {
    if (config.logSqlDsn) logDatabase = await openDatabase(config.logSqlDsn, config.sqlitePath, 'LOG_SQL_DSN', batchWriterFor);
    if (config.nodeType === 'master') {
      await migrateMainDatabase(database.db, database.dialect, { logger, clock });
      await migrateLogDatabase(logDatabase.db, logDatabase.dialect);
      await ensureRootUser(new RootUserRepository(database.db), { initialPassword: config.initialRootPassword, clock, logger });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { database, logDatabase, close };
}

/**
 * Opens every outside resource named by the configuration, migrates, and creates the root user on
 * an empty database. Each failure is one readable line (the caller prints it and exits). The
 * databases' part runs through `opening`, which may try it again while they cannot be reached.
 */
export async function openDependencies(
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
  opening: DatabaseOpening = (open) => open(),
): Promise<OpenedDependencies> {
  const opened: Array<{ close(): Promise<void> }> = [];
  const closeAll = async () => {
    for (const resource of opened.reverse()) await resource.close().catch(() => undefined);
  };
  try {
    const databases = await opening(() => openDatabases(config, logger, clock));
    opened.push(databases);
    const { database, logDatabase } = databases;
    let redis: Redis | undefined;
    if (config.redisConnString) {
      const connected = await connectRedis(config.redisConnString);
      redis = connected;
      opened.push({ close: async () => void connected.disconnect() });
    }
    const bus = await openChangeBus(redis, logger);
    opened.push(bus);
    return { config, database, logDatabase, redis, bus, clock, logger, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Redis pub/sub reaches every instance; without it, a worker of several (WORKERS) reaches its machine's others. */
async function openChangeBus(redis: Redis | undefined, logger: Logger): Promise<ChangeBus> {
  if (redis) return createRedisChangeBus(redis, logger);
  const link = PrimaryLink.get();
  return link ? createClusterChangeBus(link, logger) : createLocalChangeBus();
}
