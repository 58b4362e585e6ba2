/** The chat call the outage checks make; the fake upstream answers it with total_tokens 7. */
const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

export interface OutageCallResult {
  /** 0 when no answer came (connection refused or cut, or 15 s without one). */
  readonly status: number;
  readonly requestId: string;
  /** The answer arrived whole, usage included. */
  readonly whole: boolean;
}

/**
 * One chat call through the gateway at `baseUrl` with token `key`, never throwing: an outage test counts
 * what came back. `ownConnection` opens a connection for this call alone, which the cluster hands to
 * the next worker in turn (calls on one kept-alive connection all reach the same worker).
 */
export async function outageCall(baseUrl: string, key: string, ownConnection = false): Promise<OutageCallResult> {
  const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json', ...(ownConnection ? { connection: 'close' } : {}) },
    body: chatBody,
    signal: AbortSignal.timeout(15_000),
  }).catch(() => undefined);
  const text = (await answer?.text().catch(() => '')) ?? '';
  return { status: answer?.status ?? 0, requestId: answer?.headers.get('x-oneapi-request-id') ?? '', whole: text.includes('"total_tokens":7') };
}
