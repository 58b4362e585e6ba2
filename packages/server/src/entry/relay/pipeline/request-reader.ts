import { imagePriceRatio } from '../../../domain/billing/image-price-ratio.ts';
import { multipartField } from '../../../core/platform/multipart-form.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayEndpoint } from './relay-endpoints.ts';
import { RelayError } from '../../../core/http/relay-error.ts';

/** What the pipeline reads from a caller body, once. */
export interface ParsedRelayBody {
  readonly body: Record<string, unknown> | undefined;
  /** The pipeline edited `body` (masked sensitive words): the upstream gets it serialised. */
  readonly bodyChanged: boolean;
  readonly rawBody: Buffer;
  readonly contentType: string;
  readonly model: string;
  readonly stream: boolean;
  /** The caller asked for a usage chunk in the stream (`stream_options.include_usage`). */
  readonly wantsStreamUsage: boolean;
  readonly maxTokens: number;
  /** The prompt's text, for the pre-charge estimate and local counting. */
  readonly promptText: string;
  /** Per-call multiplier: images `n` times the size and quality factor; 1 otherwise. */
  readonly calls: number;
}

const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
const asPositive = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/** The text of message contents in any OpenAI shape (string, parts, nested input items). */
export function collectText(value: unknown, into: string[] = [], depth = 0): string[] {
  if (depth > 6 || value === null || value === undefined) return into;
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectText(item, into, depth + 1);
  else if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.text === 'string') into.push(object.text);
    if (object.content !== undefined) collectText(object.content, into, depth + 1);
    if (typeof object.name === 'string') into.push(object.name);
    if (object.function !== undefined) collectText(JSON.stringify(object.function), into, depth + 1);
  }
  return into;
}

function promptTextOf(body: Record<string, unknown>): string {
  const parts: string[] = [];
  collectText(body.messages, parts);
  collectText(body.prompt, parts);
  collectText(body.input, parts);
  collectText(body.instructions, parts);
  collectText(body.query, parts);
  collectText(body.documents, parts);
  if (Array.isArray(body.tools)) parts.push(JSON.stringify(body.tools));
  return parts.join('\n');
}

/** What an image request costs in per-call prices: `n` pictures (at least one) at their size's factor. */
function imageCalls(model: string, count: number, size: string, quality: string): number {
  return Math.max(1, count) * imagePriceRatio(model, size, quality);
}

export function readRelayBody(endpoint: RelayEndpoint, rawBody: Buffer, parsed: unknown, contentType: string, modelOverride?: string): ParsedRelayBody {
  if (endpoint.body === 'multipart') {
    const model = multipartField(rawBody, contentType, 'model') || endpoint.defaultModel || '';
    if (!model) throw new RelayError(400, 'invalid_request', relayMessages.missingModel);
    const field = (name: string) => multipartField(rawBody, contentType, name);
    const calls = endpoint.capability === 'images' ? imageCalls(model, asPositive(Number(field('n'))), field('size'), field('quality')) : 1;
    return {
      body: undefined,
      bodyChanged: false,
      rawBody,
      contentType,
      model,
      stream: false,
      wantsStreamUsage: false,
      maxTokens: 0,
      promptText: multipartField(rawBody, contentType, 'prompt'),
      calls,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new RelayError(400, 'invalid_request', relayMessages.invalidRequest);
  const body = parsed as Record<string, unknown>;
  const model = modelOverride ?? (asString(body.model) || endpoint.defaultModel || '');
  if (!model) throw new RelayError(400, 'invalid_request', relayMessages.missingModel);
  const streamOptions = body.stream_options;
  return {
    body,
    bodyChanged: false,
    rawBody,
    contentType: contentType || 'application/json',
    model,
    stream: endpoint.stream !== 'none' && body.stream === true,
    wantsStreamUsage: typeof streamOptions === 'object' && streamOptions !== null && (streamOptions as Record<string, unknown>).include_usage === true,
    maxTokens: Math.max(asPositive(body.max_tokens), asPositive(body.max_completion_tokens), asPositive(body.max_output_tokens)),
    promptText: promptTextOf(body),
    calls: endpoint.capability === 'images' ? imageCalls(model, asPositive(body.n), asString(body.size), asString(body.quality)) : 1,
  };
}
