import { Agent, request } from 'undici';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { chatBody, type Target } from '../targets/target.ts';

/**
 * `count` non-stream chat requests (the throughput phase's body) over `concurrency` kept-alive
 * connections, a closed loop; throws unless every one answered 200. For the scripts that measure a
 * window of requests from inside the gateway (callgrind, the heap sampler) rather than by the clock.
 */
export async function sendChatRequests(target: Target, count: number, options: { concurrency: number; timeoutMs?: number }): Promise<void> {
  const agent = new Agent({ connections: options.concurrency });
  const body = chatBody(benchModels.instant, false);
  const timeoutMs = options.timeoutMs ?? 30_000;
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < count) {
        next += 1;
        const answer = await request(`${target.origin}${target.path}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...target.headers },
          dispatcher: agent,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const text = await answer.body.text();
        if (answer.statusCode !== 200) failures.push(`${answer.statusCode}: ${text.slice(0, 200)}`);
      }
    }),
  );
  await agent.close();
  if (failures.length > 0) throw new Error(`${failures.length} of ${count} requests failed, first: ${failures[0]}`);
}
