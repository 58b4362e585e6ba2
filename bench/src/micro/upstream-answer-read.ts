/**
 * CPU per whole upstream answer read two ways, on one kept-alive pool against the bench's fake
 * upstream (its own process): undici's `request()` with the body read off its stream (how the relay
 * read whole answers before), and `dispatch` with the relay's collector (transport/whole-answer-dispatch.ts).
 * Rounds alternate so both see the same machine.
 *
 *   node bench/src/micro/upstream-answer-read.ts [--requests=20000] [--rounds=5]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { dispatchForWholeAnswer } from '../../../packages/server/src/entry/relay/transport/whole-answer-dispatch.ts';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { startFakeUpstream } from '../targets/floor.ts';
import { chatBody } from '../targets/target.ts';
import { stopAll } from '../platform/processes.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const requests = Number(options.get('--requests') ?? 20000);
const rounds = Number(options.get('--rounds') ?? 5);
const concurrency = 32;
const limits = { answerBytes: 64 * 1024 * 1024, errorBytes: 64 * 1024 };

const fake = await startFakeUpstream({ runDir: mkdtempSync(join(tmpdir(), 'answer-read-')), cpus: '1' });
const agent = new Agent({ connections: null, pipelining: 1 });
const body = chatBody(benchModels.instant, false);
const dispatchOptions = {
  origin: fake.origin,
  path: '/v1/chat/completions',
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
  body,
};

function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

const ways: Record<string, (signal: AbortSignal) => Promise<number>> = {
  'request() + stream read': async (signal) => (await readStream((await agent.request({ ...dispatchOptions, signal })).body)).length,
  'dispatch + collector': async (signal) => (await dispatchForWholeAnswer(agent, dispatchOptions, signal, limits)).body.length,
};

async function round(read: (signal: AbortSignal) => Promise<number>): Promise<number> {
  let next = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        if ((await read(new AbortController().signal)) === 0) throw new Error('empty answer');
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

try {
  const results = new Map<string, number[]>(Object.keys(ways).map((name) => [name, []]));
  for (const read of Object.values(ways)) await round(read); // warm-up
  for (let index = 0; index < rounds; index += 1) for (const [name, read] of Object.entries(ways)) results.get(name)?.push(await round(read));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log(`CPU µs per whole answer, ${requests} requests per round at c=${concurrency}, ${rounds} rounds (median):`);
  for (const [name, values] of results) console.log(`  ${name}: ${median(values).toFixed(1)} (${values.map((value) => value.toFixed(1)).join(', ')})`);
} finally {
  await agent.close();
  await stopAll();
}
