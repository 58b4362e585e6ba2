import type {
  AccountCall,
  CapabilityName,
  ChannelTarget,
  EndpointCapability,
  PassThroughResponse,
  Provider,
  RelayRequest,
  UpstreamRequest,
} from '../../provider.ts';
import { listOpenAIModels } from './account-readers.ts';
import { withMultipartField } from '../../../../core/platform/multipart-form.ts';
import { parseOpenAIError } from './openai-error.ts';
import { extractOpenAIStreamText, extractOpenAIUsage } from './openai-usage.ts';

/** What an OpenAI-compatible vendor declares; everything else is OpenAI's behaviour. */
export interface OpenAICompatibleSpec {
  readonly id: string;
  readonly channelTypes: readonly number[];
  /** The capabilities the vendor offers; default: all OpenAI endpoints. */
  readonly capabilities?: readonly CapabilityName[];
  /**
   * The vendor's path in place of OpenAI's leading `/v1` (e.g. `/api/paas/v4` for Zhipu, '' for
   * Perplexity). Default: keep `/v1`.
   */
  readonly versionPath?: string;
  /** Full control of the URL, for vendors whose address is not base + path (custom channels). */
  readonly resolveUrl?: (request: RelayRequest, target: ChannelTarget) => string;
  /** Extra or different headers (the default is `Authorization: Bearer <key>`). */
  readonly authHeaders?: (target: ChannelTarget) => Record<string, string>;
  /** The vendor's model list, when it is not OpenAI's `GET /v1/models` with the bearer key. */
  readonly listModels?: (target: ChannelTarget, call: AccountCall) => Promise<string[]>;
  /** The vendor's balance endpoint, for vendors that have one. */
  readonly fetchBalance?: (target: ChannelTarget, call: AccountCall) => Promise<number>;
}

const allCapabilities: readonly CapabilityName[] = ['chat', 'completions', 'embeddings', 'images', 'audio', 'moderations', 'rerank', 'responses'];

const passThrough: PassThroughResponse = { kind: 'pass-through', extractUsage: extractOpenAIUsage, extractStreamText: extractOpenAIStreamText };

/** The caller's path with `/v1` replaced by the vendor's version path. */
export function vendorPath(path: string, versionPath: string | undefined): string {
  if (versionPath === undefined || !path.startsWith('/v1/')) return path;
  return `${versionPath}${path.slice(3)}`;
}

/** Default credentials: the bearer key, plus the OpenAI organization header when set. */
export function bearerHeaders(target: ChannelTarget): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
  if (target.organization) headers['openai-organization'] = target.organization;
  return headers;
}

/**
 * The request body the upstream gets: the caller's bytes when the pipeline changed nothing (no
 * re-serialisation on the hot path), otherwise the edited JSON. A multipart form (audio files,
 * image edits) has no parsed body for the pipeline to edit, so the channel's model mapping is
 * applied to its `model` field here.
 */
export function upstreamBody(request: RelayRequest): Buffer | string {
  if (request.body) return request.bodyChanged ? JSON.stringify(request.body) : request.rawBody;
  if (request.upstreamModel === request.model) return request.rawBody;
  return withMultipartField(request.rawBody, request.contentType, 'model', request.upstreamModel) ?? request.rawBody;
}

function buildRequest(spec: OpenAICompatibleSpec) {
  return (request: RelayRequest, target: ChannelTarget): UpstreamRequest => {
    const url = spec.resolveUrl ? spec.resolveUrl(request, target) : `${target.baseUrl}${vendorPath(request.path, spec.versionPath)}`;
    const headers: Record<string, string> = {
      ...(spec.authHeaders ? spec.authHeaders(target) : bearerHeaders(target)),
      'content-type': request.contentType || 'application/json',
    };
    if (request.stream) headers['accept'] = 'text/event-stream';
    return { url, method: 'POST', headers, body: upstreamBody(request) };
  };
}

/**
 * Builds the provider of a vendor that speaks OpenAI's wire format: requests are forwarded (with the
 * vendor's address and auth), answers are passed through byte for byte and only usage is read.
 */
export function createOpenAICompatibleProvider(spec: OpenAICompatibleSpec): Provider {
  const capability: EndpointCapability = { buildRequest: buildRequest(spec), response: passThrough };
  const provider: Record<string, unknown> = {
    id: spec.id,
    channelTypes: spec.channelTypes,
    parseError: parseOpenAIError,
    listModels: spec.listModels ?? listOpenAIModels,
  };
  if (spec.fetchBalance) provider['fetchBalance'] = spec.fetchBalance;
  for (const name of spec.capabilities ?? allCapabilities) provider[name] = capability;
  return provider as unknown as Provider;
}
