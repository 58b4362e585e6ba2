/**
 * CPU per request of the response cache's own work before the relay goes on: the plan (rule match,
 * the caller's headers, the key) and the lookup in the memory store, for a miss and for a hit, with
 * the bench's request (issue 41's shape). No gateway: the figure a rule adds to every request it
 * applies to, beside the gateway's ~160 µs.
 *
 *   node bench/src/micro/response-cache-lookup.ts [--requests=200000]
 */
import { MemoryAnswerStore } from '../../../packages/server/src/entry/relay/response-cache/answer-store.ts';
import { ResponseCache, type CacheRequest } from '../../../packages/server/src/entry/relay/response-cache/response-cache.ts';
import type { OptionStore } from '../../../packages/server/src/domain/options/option-store.ts';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { chatBody } from '../targets/target.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const requests = Number(options.get('--requests') ?? 200_000);

const rules = [{ model: 'bench-*', ttl: 3600, hit_ratio: 0.1 }];
const optionStore = { getJson: () => rules, onChange: () => undefined } as unknown as OptionStore;
const cache = new ResponseCache(optionStore, new MemoryAnswerStore(64 * 1024 * 1024), (error) => {
  throw error;
});
const body = JSON.parse(chatBody(benchModels.instant, false)) as Record<string, unknown>;
const request = (userId: number): CacheRequest => ({
  capability: 'chat',
  path: '/v1/chat/completions',
  model: benchModels.instant,
  stream: false,
  body,
  groups: ['default'],
  pinnedChannel: false,
  userId,
  tokenOptedOut: false,
  cacheControl: undefined,
  switchboardCache: undefined,
});
// The answer the hit row finds (the miss row asks with a user scope of its own, so it never does).
const stored = cache.plan(request(1));
if (!stored) throw new Error('the rule does not apply');
cache.save(stored, {
  kind: 'whole',
  contentType: 'application/json',
  servedModel: benchModels.instant,
  usage: { promptTokens: 18, completionTokens: 9 },
  body: Buffer.from('{"id":"chatcmpl-1","object":"chat.completion","choices":[]}'),
});

/** Microseconds of CPU per plan + lookup, the best of three runs; `hit` says what every lookup must find. */
async function cpuPerRequest(hit: boolean): Promise<number> {
  const asked = request(1);
  const missing = { ...asked, body: { ...body, max_tokens: 33 } };
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run += 1) {
    const started = process.cpuUsage();
    for (let index = 0; index < requests; index += 1) {
      const plan = cache.plan(hit ? asked : missing);
      if (!plan) throw new Error('no plan');
      let found = cache.lookup(plan);
      // What the relay does: a promise is awaited, a synchronous answer is not.
      if (found instanceof Promise) found = await found;
      if ((found !== undefined) !== hit) throw new Error(hit ? 'expected a hit' : 'expected a miss');
    }
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / requests);
  }
  return best;
}

console.log(`CPU per request of the cache's plan and lookup (µs, best of 3 × ${requests})`);
console.log(`miss  ${(await cpuPerRequest(false)).toFixed(2)}`);
console.log(`hit   ${(await cpuPerRequest(true)).toFixed(2)}`);
