import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summariseProfile } from './profile-summary.ts';

const folder = mkdtempSync(join(tmpdir(), 'sb-profile-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const server = 'file:///repo/packages/server/src';
const modules = 'file:///repo/node_modules';

/**
 * A profile of one request's shape, 100 µs per sample: the Fastify route calls the relay, which
 * parses JSON (Node's own frame, the relay's work) and writes its answer through Fastify to the socket;
 * undici reads the upstream; GC and idle samples beside them.
 */
function writeProfile(): string {
  const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url, lineNumber: 0 }, children });
  const nodes = [
    frame(1, '(root)', '', [2, 3, 8, 9, 10, 11]),
    frame(2, 'routeHandler', `${modules}/fastify/lib/route.js`, [4, 6]),
    frame(3, 'onBody', `${modules}/undici/lib/dispatcher/client-h1.js`),
    frame(4, 'relayRequest', `${server}/entry/relay/pipeline/relay-pipeline.ts`, [5]),
    frame(5, 'parse', ''),
    frame(6, 'Reply.send', `${modules}/fastify/lib/reply.js`, [7]),
    frame(7, 'writev', ''),
    frame(8, '(garbage collector)', ''),
    frame(9, '(idle)', ''),
    frame(10, 'parserOnIncoming', 'node:_http_server'),
    frame(11, 'compileSourceTextModule', 'node:internal/modules/esm/utils'),
  ];
  // Samples per node: relay 3 (+2 in its JSON parse), Fastify 1, the write 2, undici 1, GC 1, Node 1, start-up 1, idle 5.
  const counts: Array<[number, number]> = [
    [4, 3],
    [5, 2],
    [2, 1],
    [7, 2],
    [3, 1],
    [8, 1],
    [10, 1],
    [11, 1],
    [9, 5],
  ];
  const samples = counts.flatMap(([id, count]) => Array<number>(count).fill(id));
  const file = join(folder, 'request.cpuprofile');
  writeFileSync(file, JSON.stringify({ nodes, samples, timeDeltas: samples.map(() => 100), startTime: 0, endTime: samples.length * 100 }));
  return file;
}

describe('the profile summary', () => {
  it('gives busy time by whose code asked for it, Node frames to the package above them, socket writes apart', () => {
    const owners = Object.fromEntries(summariseProfile(writeProfile()).byOwner.map((entry) => [entry.name, entry.selfPercent]));
    // 12 busy samples (the 5 idle ones left out).
    expect(owners).toEqual({
      Switchboard: 41.7,
      Fastify: 8.3,
      'socket writes (answers)': 16.7,
      undici: 8.3,
      GC: 8.3,
      'Node (no package above)': 8.3,
      'start-up (module loading)': 8.3,
    });
  });
});
