const requiredNodeMajor = 24;
if (Number(process.versions.node.split('.')[0]) < requiredNodeMajor) {
  console.error(`Switchboard needs Node ${requiredNodeMajor} or newer (this is ${process.version}); start it with "npm start", which uses the pinned Node.`);
  process.exit(1);
}

const { loadConfig, ConfigError, printableStartupError } = await import('./core/config/config.ts');
const { createStdoutLogger } = await import('./core/platform/logger.ts');

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

// Text on a terminal, JSON lines for everything else (files, containers, collectors).
const logger = createStdoutLogger(config.logLevel, process.stdout.isTTY === true);

// WORKERS > 1: this process supervises that many gateway processes sharing the port (cluster/run-primary.ts).
const cluster = (await import('node:cluster')).default;
if (config.workers > 1 && cluster.isPrimary) {
  const { runPrimary } = await import('./domain/cluster/run-primary.ts');
  await runPrimary(config, logger);
} else {
  const { serveThisProcess } = await import('./serve-process.ts');
  await serveThisProcess(config, logger, fail);
}
