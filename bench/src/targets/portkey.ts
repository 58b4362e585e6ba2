import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, waitForPort } from '../platform/processes.ts';
import { chatPath, type Target } from './target.ts';

/** The peer and the versions its own lockfile pins (a newer @hono/node-server breaks its streaming). */
const peerPackages = ['@portkey-ai/gateway@1.15.2', '@hono/node-server@1.13.5', '@hono/node-ws@1.2.0'];

function run(command: string, args: string[], cwd: string): Promise<void> {
  // npm run exports npm_config_* (workspace, prefix…) that would aim a nested install at the repository.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/**
 * Installs the peer gateway into a git-ignored folder when it is missing (never into the repository's
 * lockfile), then removes the @hono copies nested under it so the pinned ones are used.
 */
export async function ensurePortkeyInstalled(peerDir: string): Promise<string> {
  const entry = join(peerDir, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(entry)) {
    mkdirSync(peerDir, { recursive: true });
    const manifest = join(peerDir, 'package.json');
    if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: 'switchboard-bench-peer', private: true }, null, 2));
    console.error(`installing the peer gateway into ${peerDir} (${peerPackages.join(' ')})…`);
    await run('npm', ['install', '--prefix', peerDir, '--no-save', '--no-audit', '--no-fund', ...peerPackages], peerDir);
  }
  rmSync(join(peerDir, 'node_modules/@portkey-ai/gateway/node_modules/@hono'), { recursive: true, force: true });
  if (!existsSync(entry)) throw new Error(`the peer gateway did not install: ${entry} is missing`);
  return entry;
}

export async function startPortkey(options: {
  peerDir: string;
  runDir: string;
  upstreamOrigin: string;
  cpus: string;
  nodeFlags?: readonly string[];
}): Promise<Target> {
  const entry = await ensurePortkeyInstalled(options.peerDir);
  const port = await freePort();
  const preload = fileURLToPath(new URL('./loopback-preload.ts', import.meta.url));
  const started = startProcess({
    name: 'Portkey',
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), '--import', preload, entry, `--port=${port}`, '--headless'],
    cpus: options.cpus,
    cwd: options.peerDir,
    logFile: join(options.runDir, 'portkey.log'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' },
  });
  await waitForPort(port, started);
  return {
    id: 'portkey',
    label: 'Portkey 1.15.2 (peer)',
    origin: `http://127.0.0.1:${port}`,
    path: chatPath,
    headers: {
      authorization: 'Bearer fake-key-portkey',
      'x-portkey-provider': 'openai',
      // Loopback is among Portkey's default trusted custom hosts.
      'x-portkey-custom-host': `${options.upstreamOrigin}/v1`,
    },
    process: started,
  };
}
