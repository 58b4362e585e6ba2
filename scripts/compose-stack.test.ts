import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The compose stack (docker-compose.yml and deploy/nginx.conf) read as text: Docker cannot run where
 * the tests run, so these are the properties a deployment relies on, checked on the files themselves.
 */
const root = new URL('../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const compose = read('docker-compose.yml');
const nginx = read('deploy/nginx.conf').replace(/#.*$/gm, '');
const readme = read('README.md');

/** The lines indented under `key:` (the first one at that path), keys given outermost first. */
function yamlBlock(text: string, ...keys: string[]): string {
  let lines = text.split('\n');
  for (const key of keys) {
    const start = lines.findIndex((line) => new RegExp(`^\\s*${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`).test(line));
    if (start < 0) return '';
    const indent = /^\s*/.exec(lines[start] ?? '')?.[0].length ?? 0;
    const end = lines.findIndex((line, index) => index > start && line.trim() !== '' && (/^\s*/.exec(line)?.[0].length ?? 0) <= indent);
    lines = lines.slice(start, end < 0 ? undefined : end);
    lines = [(lines[0] ?? '').replace(/^\s*[^:]+:\s*/, ' '.repeat(indent + 1)), ...lines.slice(1)];
  }
  return lines.join('\n');
}

/** The services built from the shared gateway definition (`<<: *gateway` or `name: *gateway`). */
const gatewayServices = [...compose.matchAll(/^ {2}([\w-]+):\s*\*gateway\s*$/gm)].map((match) => match[1] ?? '');
const gateway = yamlBlock(compose, 'x-gateway');

describe('the compose stack', () => {
  it('runs two gateways from one definition', () => {
    expect(gatewayServices).toEqual(['gateway-1', 'gateway-2']);
  });

  it('refuses to start without INITIAL_ROOT_PASSWORD instead of creating root / 123456', () => {
    expect(yamlBlock(gateway, 'environment')).toMatch(/^\s*INITIAL_ROOT_PASSWORD:\s*['"]?\$\{INITIAL_ROOT_PASSWORD:\?[^}]+\}['"]?\s*$/m);
    expect(compose).not.toContain('123456');
  });

  it('starts the gateways once PostgreSQL and Redis answer their health checks', () => {
    for (const service of ['postgres', 'redis']) {
      expect(yamlBlock(compose, 'services', service, 'healthcheck', 'test'), service).not.toBe('');
      expect(yamlBlock(gateway, 'depends_on', service, 'condition').trim(), service).toBe('service_healthy');
    }
    expect(yamlBlock(compose, 'services', 'redis', 'healthcheck', 'test')).toMatch(/redis-cli.*ping/);
  });

  it("re-resolves the gateways through Docker's DNS, so a recreated gateway is found again", () => {
    expect(nginx).toMatch(/^\s*resolver\s+127\.0\.0\.11\s[^;]*valid=\d+s[^;]*;/m);
    const upstream = /upstream\s+switchboard\s*\{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(upstream).toMatch(/^\s*zone\s+\S+/m);
    const servers = [...upstream.matchAll(/^\s*server\s+([^\s;]+)([^;]*);/gm)];
    expect(servers.map((server) => server[1])).toEqual(gatewayServices.map((service) => `${service}:3000`));
    for (const server of servers) expect(server[2], server[1]).toMatch(/\bresolve\b/);
    // `resolve` in an upstream is open-source nginx from 1.27.3 on.
    const [major = 0, minor = 0] = (/image:\s*nginx:(\d+)\.(\d+)/.exec(compose)?.slice(1) ?? []).map(Number);
    expect(major * 1000 + minor).toBeGreaterThanOrEqual(1028);
  });

  it('tells the gateways the scheme, host and client address the caller used', () => {
    const location = /location\s+\/\s*\{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(location).toMatch(/^\s*proxy_set_header\s+X-Forwarded-Proto\s+\$scheme;/m);
    expect(location).toMatch(/^\s*proxy_set_header\s+X-Forwarded-Host\s+\$host;/m);
    // nginx is the edge: a client's own X-Forwarded-For is replaced, or it could pick its address.
    expect(location).toMatch(/^\s*proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;/m);
    // A quoted YAML string either way (the formatter prefers single quotes).
    expect(yamlBlock(gateway, 'environment', 'TRUST_PROXY').trim()).toMatch(/^(['"])true\1$/);
  });

  it('documents the required INITIAL_ROOT_PASSWORD with the compose command', () => {
    const docker = readme.slice(readme.indexOf('## Docker'), readme.indexOf('\n## ', readme.indexOf('## Docker') + 1));
    expect(docker).toMatch(/INITIAL_ROOT_PASSWORD=\S+.*docker compose up/);
    expect(docker).toContain('INITIAL_ROOT_PASSWORD');
  });
});
