import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { printableStartupError, type Config } from './core/config/config.ts';
import { servingAddress } from './core/http/serving-address.ts';
import type { Logger } from './core/platform/logger.ts';
import { startMemoryReturn } from './core/platform/memory-return.ts';
import { openDependencies } from './open-dependencies.ts';
import { openWhenReachable } from './core/platform/wait-for-database.ts';

/**
 * One gateway process: opens the databases (waiting while they cannot be reached), builds the app,
 * listens, and stops gracefully on SIGTERM or SIGINT. A worker of several whose primary dies (kill -9)
 * is ended by Node's cluster module at once; the charges it had not written are in its quota journal,
 * replayed at the next start.
 */
export async function serveThisProcess(config: Config, logger: Logger, fail: (message: string) => never): Promise<void> {
  let dependencies: Awaited<ReturnType<typeof openDependencies>>;
  try {
    dependencies = await openDependencies(config, logger, undefined, (open) => openWhenReachable(open, { logger, printable: printableStartupError }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  // Only once the database is open: a start-up that fails prints its one error line and nothing else.
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: a random one is used, so logins end at restart and are not shared between instances');
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(dependencies);
  } catch (error) {
    await dependencies.close();
    fail(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const memoryReturn = startMemoryReturn(logger, app.server);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await dependencies.close();
    fail(`Cannot listen on port ${config.port} (PORT): ${error instanceof Error ? error.message : String(error)}`);
  }
  // A worker of several says nothing: its primary prints the one serving line for all of them.
  if (!cluster.isWorker) logger.info(`Switchboard is serving on ${servingAddress(app.server.address() as AddressInfo)}`);

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests and pending writes');
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000);
    deadline.unref();
    memoryReturn?.stop();
    // close() stops accepting, waits for in-flight requests, then runs the flush hooks.
    await app.close();
    await dependencies.close();
    logger.info('stopped');
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
