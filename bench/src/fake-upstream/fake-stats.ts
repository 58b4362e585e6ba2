import { request } from 'undici';

export interface FakeStats {
  requests: number;
  clientAborts: number;
  /** upstream key → "prompt:completion" → requests whose usage the fake wrote in full. */
  usage: Record<string, Record<string, number>>;
  cpuMicros: number;
}

export async function readFakeStats(origin: string): Promise<FakeStats> {
  const answer = await request(`${origin}/__stats`);
  return (await answer.body.json()) as FakeStats;
}

/** Usage the fake emitted for one upstream key: requests and token totals, plus the raw tally. */
export interface UsageTally {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  tally: Array<{ prompt: number; completion: number; count: number }>;
}

export function usageFor(stats: FakeStats, key: string): UsageTally {
  const tally = Object.entries(stats.usage[key] ?? {}).map(([usage, count]) => {
    const [prompt, completion] = usage.split(':').map(Number);
    return { prompt: prompt ?? 0, completion: completion ?? 0, count };
  });
  return {
    requests: tally.reduce((sum, entry) => sum + entry.count, 0),
    promptTokens: tally.reduce((sum, entry) => sum + entry.prompt * entry.count, 0),
    completionTokens: tally.reduce((sum, entry) => sum + entry.completion * entry.count, 0),
    tally,
  };
}
