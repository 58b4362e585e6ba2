import { requestWithExtras } from '../../../lib/api-client.ts';

/** What a test answered: the seconds it took, and whether callers would still be refused the model tested for lack of a price. */
export interface ChannelTestOutcome {
  seconds: number;
  model: string;
  /** Passed upstream, but the model has no price or ratio: `message` says so in the console's language. */
  unpriced: boolean;
  message: string;
}

/** `GET /api/channel/test/{id}?model=`: one test request. */
export async function testChannel(id: number, model?: string): Promise<ChannelTestOutcome> {
  const query = model ? `?model=${encodeURIComponent(model)}` : '';
  const body = await requestWithExtras<{ time?: number; model?: string; unpriced?: boolean }>('GET', `/api/channel/test/${id}${query}`);
  const data = body.data as { time?: number } | undefined;
  return { seconds: Number(body.time ?? data?.time ?? 0), model: body.model ?? model ?? '', unpriced: body.unpriced === true, message: body.message };
}
