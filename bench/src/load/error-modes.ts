import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { readFakeStats } from '../fake-upstream/fake-stats.ts';
import { chatBody, type Target } from '../targets/target.ts';
import { timedRequest } from './timed-request.ts';

export interface ErrorModeResult {
  mode: string;
  /** What the client got: an HTTP status, or how the stream ended. */
  outcome: string;
  ms: number;
  /** For the abort cases: whether the upstream connection was closed after the client left. */
  upstreamReleased?: boolean;
}

/**
 * Failure paths (S9): upstream 429 and 500, a stream the upstream cuts mid-way, an upstream that never
 * answers (the client gives up), and a client leaving mid-stream. Checks what the caller sees and that
 * the gateway lets go of the upstream when the caller leaves.
 */
export async function checkErrorModes(target: Target, upstreamOrigin: string, headers?: Record<string, string>): Promise<ErrorModeResult[]> {
  const aimed: Target = headers ? { ...target, headers: { ...target.headers, ...headers } } : target;
  const client = new Client(aimed.origin);
  const results: ErrorModeResult[] = [];
  try {
    for (const [mode, model] of [
      ['upstream 429', benchModels.error429],
      ['upstream 500', benchModels.error500],
    ] as const) {
      const timing = await timedRequest(client, aimed, chatBody(model, false), { timeoutMs: 10_000 });
      results.push({ mode, outcome: timing.error ?? `HTTP ${timing.status}`, ms: timing.totalMs });
    }
    const cut = await timedRequest(client, aimed, chatBody(benchModels.errorCut, true), { timeoutMs: 10_000 });
    results.push({
      mode: 'upstream cuts the stream',
      outcome: `HTTP ${cut.status}, ${cut.frames} frames${cut.done ? ', [DONE]' : ''}${cut.error ? `, ${cut.error}` : ''}`,
      ms: cut.totalMs,
    });
    for (const [mode, model, stream, leaveAfterMs] of [
      ['upstream never answers, client leaves after 2 s', benchModels.errorHang, false, 2000],
      ['client leaves a paced stream after 200 ms', benchModels.paced, true, 200],
      ['client leaves a stream before its first chunk (upstream answers after 50 ms)', benchModels.slow, true, 10],
    ] as const) {
      const before = (await readFakeStats(upstreamOrigin)).clientAborts;
      const leaving = new Client(aimed.origin);
      const timing = await timedRequest(leaving, aimed, chatBody(model, stream), { timeoutMs: leaveAfterMs });
      let released = false;
      for (let waited = 0; waited < 2000 && !released; waited += 50) {
        await sleep(50);
        released = (await readFakeStats(upstreamOrigin)).clientAborts > before;
      }
      await leaving.destroy();
      results.push({
        mode,
        outcome: timing.error === 'timeout' ? `client left (HTTP ${timing.status || 'none yet'}, ${timing.frames} frames)` : `HTTP ${timing.status}`,
        ms: timing.totalMs,
        upstreamReleased: released,
      });
    }
  } finally {
    await client.close();
  }
  return results;
}
