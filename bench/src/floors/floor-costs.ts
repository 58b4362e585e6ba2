import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { measureThroughput, throughputConnections } from '../load/throughput.ts';
import { medianBy } from '../measure/stats.ts';
import { stopAll, stopChildrenOnSignals } from '../platform/processes.ts';
import { newResultsFolder } from '../platform/results-folder.ts';
import { scriptOptions } from '../platform/script-options.ts';
import { floorLabels, startFakeUpstream, startFloor, type FloorKind } from '../targets/floor.ts';
import type { Target } from '../targets/target.ts';
import { chatBody } from '../targets/target.ts';

/**
 * `npm run bench:floors`: what the web framework costs a pass-through, measured in turns. Four bare
 * pass-throughs (`src/targets/floor-server.ts`), each pinned to CPU 0 with Switchboard's Node flags:
 * node:http or Fastify, the upstream answer piped back or read whole and sent as one buffer (as
 * Switchboard sends a non-stream answer). Each round measures every one of them (non-stream chat
 * requests, issue 41's shape, 32 keep-alive connections); the table gives each one's median round of
 * CPU per request and its ratio to the plain floor (node:http, piped), the budgets' divisor.
 *
 *   npm run bench:floors -w @switchboard/bench -- [--rounds=5] [--seconds=5]
 */
const options = scriptOptions(process.argv.slice(2));
const rounds = Number(options.get('--rounds') ?? 5);
const seconds = Number(options.get('--seconds') ?? 5);
const kinds: readonly FloorKind[] = ['http', 'http-whole', 'fastify', 'fastify-whole'];
const runDir = newResultsFolder('floors');
const progress = (message: string) => console.error(`[floors] ${message}`);
stopChildrenOnSignals(stopAll);

try {
  const fake = await startFakeUpstream({ runDir, cpus: '1' });
  const floors: Array<{ kind: FloorKind; target: Target; rounds: number[] }> = [];
  for (const kind of kinds)
    floors.push({ kind, target: await startFloor({ runDir, upstreamOrigin: fake.origin, cpus: '0', kind, eventLoopMonitor: false }), rounds: [] });
  const body = chatBody(benchModels.instant, false);
  for (let round = 1; round <= rounds; round += 1) {
    for (const floor of floors) {
      const result = await measureThroughput(floor.target, body, {
        connections: throughputConnections,
        durationSeconds: seconds,
        warmupSeconds: 1,
        upstreamPid: fake.pid,
      });
      floor.rounds.push(result.cpuMicrosPerRequest ?? Number.NaN);
      progress(`round ${round}, ${floorLabels[floor.kind]}: ${Math.round(result.rps)} req/s, ${result.cpuMicrosPerRequest?.toFixed(1) ?? '–'} µs CPU/req`);
    }
  }
  const medians = new Map(floors.map((floor) => [floor.kind, medianBy(floor.rounds, (value) => value) ?? Number.NaN]));
  const plain = medians.get('http') ?? Number.NaN;
  const lines = [
    `| pass-through | µs CPU per request (median of ${rounds}) | × the plain floor | rounds |`,
    '|---|--:|--:|---|',
    ...floors.map(
      (floor) =>
        `| ${floorLabels[floor.kind]} | ${medians.get(floor.kind)?.toFixed(1)} | ${((medians.get(floor.kind) ?? Number.NaN) / plain).toFixed(2)} | ${floor.rounds.map((value) => value.toFixed(1)).join(', ')} |`,
    ),
  ];
  writeFileSync(join(runDir, 'floors.md'), `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
} finally {
  await stopAll();
}
