import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');
const metricsToken = 'scraper-token-0123456789';
const deploy = new URL('../../../../../deploy/', import.meta.url);

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}

/** Every PromQL expression of the dashboard: its panels' (and rows' panels') targets and its variables' queries. */
function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(new URL('grafana/switchboard-dashboard.json', deploy), 'utf8')) as {
    panels: Panel[];
    templating: { list: Array<{ definition?: string }> };
  };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  const targets = panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ''));
  return [...targets, ...dashboard.templating.list.map((variable) => variable.definition ?? '')].filter((expression) => expression !== '');
}

/** The metric names an expression reads: Switchboard's own and Node's (prom-client) families. */
function metricNames(expression: string): string[] {
  return expression.match(/\b(?:switchboard|process|nodejs)_[A-Za-z0-9_:]+/g) ?? [];
}

/** The sample names on a scrape (histograms as their _bucket, _sum and _count series). */
function scrapedNames(text: string): Set<string> {
  const names = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(line)?.[0] ?? '');
  return new Set(names);
}

describe.each(sqlite)('the Grafana dashboard in deploy/ on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database, { METRICS_TOKEN: metricsToken });
  });
  afterAll(async () => testApp.close());

  it('queries only metrics that /metrics exposes', async () => {
    const scraped = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } });
    expect(scraped.statusCode).toBe(200);
    const exposed = scrapedNames(scraped.body);
    const expressions = dashboardExpressions();
    expect(expressions.length).toBeGreaterThan(10);
    const queried = new Set(expressions.flatMap(metricNames));
    expect([...queried].filter((name) => name.startsWith('switchboard_')).length).toBeGreaterThanOrEqual(5);
    expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
    // Every panel reads at least one metric, so a typo in a name is caught above rather than ignored.
    expect(expressions.filter((expression) => metricNames(expression).length === 0)).toEqual([]);
  });

  it('has a scrape config for /metrics with the bearer token from a file', () => {
    const config = readFileSync(new URL('prometheus/prometheus.yml', deploy), 'utf8');
    expect(config).toMatch(/^\s+metrics_path: \/metrics$/m);
    expect(config).toMatch(/^\s+type: Bearer$/m);
    expect(config).toMatch(/^\s+credentials_file: \S+$/m);
    expect(config).toMatch(/^\s+- job_name: switchboard$/m);
  });
});
