import { text } from 'node:stream/consumers';
import type { z } from 'zod';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { AccountCall, ChannelTarget } from '../provider.ts';

/** A failed question to a vendor's account API; the message is safe to show (it never holds the key). */
export class AccountCallError extends Error {}

/**
 * GETs a vendor account endpoint (model list, balance) and reads its JSON with `schema`. Any
 * transport failure, non-2xx status, non-JSON or unexpected shape becomes an `AccountCallError`.
 */
export async function getAccountJson<T extends z.ZodType>(
  call: AccountCall,
  target: ChannelTarget,
  url: string,
  headers: Record<string, string>,
  schema: T,
): Promise<z.output<T>> {
  let response;
  let body: string;
  try {
    response = await call.transport.send(
      { url, method: 'GET', headers },
      { signal: AbortSignal.timeout(call.timeoutMs), headersTimeoutMs: call.timeoutMs, bodyTimeoutMs: call.timeoutMs, target },
    );
    body = await text(response.body);
  } catch (error) {
    throw new AccountCallError(error instanceof Error ? error.message : String(error));
  }
  if (response.statusCode < 200 || response.statusCode >= 300) throw new AccountCallError(`HTTP ${response.statusCode}`);
  const parsed = safeParseJson(body);
  if (!parsed.ok) throw new AccountCallError('the answer is not JSON');
  const shaped = schema.safeParse(parsed.value);
  if (!shaped.success) throw new AccountCallError('unexpected answer');
  return shaped.data;
}
