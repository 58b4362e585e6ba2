import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import { maskSecrets } from '../../../core/http/relay-error.ts';
import { mapModel } from '../pipeline/channel-selector.ts';
import type { CapabilityName, ChannelTarget, RelayRequest } from '../provider.ts';
import { notYetRelayed } from '../providers/index.ts';
import { httpTransport } from '../transport/http-transport.ts';

export interface ChannelTestResult {
  readonly ok: boolean;
  /** Upstream error text (masked) when not ok. */
  readonly message: string;
  readonly elapsedMs: number;
  /** The failure says the credentials are dead (auto-disable applies). */
  readonly disablesChannel: boolean;
  /** Set when the type is not relayed at all: why, in words the console shows as they are. */
  readonly notRelayedReason?: string;
}

/** The model a test uses: the one asked for, else the channel's test model, else its first model. */
export function testModelOf(channel: ChannelRecord, requested: string | undefined): string {
  return requested || channel.testModel || channel.models[0] || 'gpt-4o-mini';
}

/**
 * Sends one tiny request ("hi", 16 tokens; an embedding for embedding models) straight to a
 * channel through its provider, with its first key or the one given, and times it. Nothing is
 * billed: a test costs the operator, not a user.
 */
export async function testChannel(
  channel: ChannelRecord,
  requestedModel: string | undefined,
  timeoutMs: number,
  now: () => number,
  keyIndex = 0,
): Promise<ChannelTestResult> {
  const model = testModelOf(channel, requestedModel);
  const embedding = model.includes('embedding');
  const capabilityName: CapabilityName = embedding ? 'embeddings' : 'chat';
  const provider = channel.provider;
  const capability = provider?.[capabilityName];
  const started = now();
  if (!provider) {
    // Nothing to send: the administrator gets the registry's reason (PaLM2: Google shut the API down).
    const notRelayedReason = notYetRelayed[channel.type] ?? `channel type ${channel.type} has no provider`;
    return { ok: false, message: `channel type ${channel.type} is not relayed: ${notRelayedReason}`, notRelayedReason, elapsedMs: 0, disablesChannel: false };
  }
  if (!capability) return { ok: false, message: `channel type ${channel.type} is not relayed`, elapsedMs: 0, disablesChannel: false };
  const upstreamModel = mapModel(channel.modelMapping, model);
  const body = embedding ? { model: upstreamModel, input: 'hi' } : { model: upstreamModel, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 };
  const request: RelayRequest = {
    capability: capabilityName,
    path: embedding ? '/v1/embeddings' : '/v1/chat/completions',
    contentType: 'application/json',
    rawBody: Buffer.from(JSON.stringify(body)),
    body,
    bodyChanged: false,
    model,
    upstreamModel,
    stream: false,
  };
  const target: ChannelTarget = {
    id: channel.id,
    type: channel.type,
    baseUrl: channel.baseUrl,
    key: channel.keys[keyIndex] ?? channel.keys[0] ?? '',
    organization: channel.organization,
    other: channel.other,
  };
  const secrets = [...channel.keys, channel.baseUrl];
  try {
    const response = await (provider.transport ?? httpTransport).send(capability.buildRequest(request, target), {
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      target,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const elapsedMs = now() - started;
    const parsed = safeParseJson(text);
    if (response.statusCode >= 400) {
      const error = provider.parseError(response.statusCode, parsed.ok ? parsed.value : text);
      return { ok: false, message: maskSecrets(error.message, secrets), elapsedMs, disablesChannel: error.disablesChannel };
    }
    if (!parsed.ok) return { ok: false, message: 'the upstream answered with an unreadable body', elapsedMs, disablesChannel: false };
    // A response time of 0 means "never tested" in the channel list: a local upstream that answers
    // within the clock's millisecond is still a tested, working channel.
    return { ok: true, message: '', elapsedMs: Math.max(1, elapsedMs), disablesChannel: false };
  } catch (error) {
    return {
      ok: false,
      message: maskSecrets(error instanceof Error ? error.message : String(error), secrets),
      elapsedMs: now() - started,
      disablesChannel: false,
    };
  }
}
