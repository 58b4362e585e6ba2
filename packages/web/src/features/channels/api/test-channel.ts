import { requestWithExtras } from '../../../lib/api-client.ts';

/** `GET /api/channel/test/{id}?model=`: one test request; answers the time it took in seconds. */
export async function testChannel(id: number, model?: string): Promise<number> {
  const query = model ? `?model=${encodeURIComponent(model)}` : '';
  const body = await requestWithExtras<{ time?: number }>('GET', `/api/channel/test/${id}${query}`);
  const data = body.data as { time?: number } | undefined;
  return Number(body.time ?? data?.time ?? 0);
}
