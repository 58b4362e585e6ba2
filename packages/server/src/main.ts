const requiredNodeMajor = 24;
if (Number(process.versions.node.split('.')[0]) < requiredNodeMajor) {
  console.error(`Switchboard needs Node ${requiredNodeMajor} or newer (this is ${process.version}); start it with "npm start", which uses the pinned Node.`);
  process.exit(1);
}

const { loadConfig, ConfigError, printableStartupError } = await import('./config/config.ts');
const { createStdoutLogger } = await import('./platform/logger.ts');
const { openDependencies } = await import('./platform/open-dependencies.ts');
const { buildApp } = await import('./app.ts');

/** Every start-up failure ends here: one line, with the values of secret variables hidden whatever produced it. */
function fail(message: string): never {
  console.error(printableStartupError(message));
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : `Invalid configuration: ${String(error)}`);
}

const logger = createStdoutLogger(config.logLevel);

let dependencies: Awaited<ReturnType<typeof openDependencies>>;
try {
  dependencies = await openDependencies(config, logger);
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
try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  await dependencies.close();
  fail(`Cannot listen on port ${config.port} (PORT): ${error instanceof Error ? error.message : String(error)}`);
}
logger.info(`Switchboard is serving on http://localhost:${config.port}`);

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
  // close() stops accepting, waits for in-flight requests, then runs the flush hooks.
  await app.close();
  await dependencies.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
