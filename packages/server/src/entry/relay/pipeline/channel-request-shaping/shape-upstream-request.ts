import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { UpstreamRequest } from '../../provider.ts';
import { withTopLevelFields } from '../top-level-fields.ts';
import type { ChannelShaping } from './channel-shaping.ts';
import { hasDisabledField, removeDisabledFields } from './disabled-fields.ts';
import { withHeaderOverride } from './header-override.ts';
import { outputCeilingOf } from './output-ceiling.ts';
import { applyParamOverride, type HeaderEdits, type HeaderSources, type OverrideRefusal } from './param-override.ts';
import { applySystemPrompt, type SystemPromptDialect } from './system-prompt.ts';

export interface ShapingInput {
  readonly shaping: ChannelShaping;
  /** The key this attempt uses (`{api_key}` in header_override). */
  readonly apiKey: string;
  /** The dialect of the upstream body when a channel system prompt applies to it (chat only); undefined otherwise. */
  readonly systemPromptDialect: SystemPromptDialect | undefined;
  /** The caller's parsed request(s) the upstream body was made from: looked at (not parsed again) for fields to remove. */
  readonly callerBodies: readonly (Record<string, unknown> | undefined)[];
  /** The caller's request headers, read by `copy_header`, `move_header` and `pass_headers`. */
  readonly callerHeaders?: HeaderSources['caller'] | undefined;
}

export type ShapedRequest =
  | {
      readonly request: UpstreamRequest;
      readonly upstreamModel?: string;
      /**
       * The output ceiling the upstream body asks for when the channel's param_override set or raised
       * it (the pre-charge hold follows it); absent otherwise.
       */
      readonly outputTokens?: number;
      readonly refused?: undefined;
    }
  | { readonly refused: OverrideRefusal };

function isJsonBody(request: UpstreamRequest): boolean {
  if (request.body === undefined) return false;
  const contentType = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return contentType === undefined ? true : contentType.toLowerCase().includes('json');
}

/** The operations' `set_header` / `delete_header`, after header_override (names compared without case). */
function withHeaderEdits(headers: Readonly<Record<string, string>>, edits: HeaderEdits): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!edits.has(name.toLowerCase())) result[name] = value;
  for (const [name, value] of edits) if (value !== undefined) result[name] = value;
  return result;
}

const modelOf = (body: Record<string, unknown>): string | undefined => (typeof body.model === 'string' ? body.model : undefined);

/**
 * The upstream request with the channel's shaping applied, in new-api's order: system prompt, then
 * the removed fields, then param_override (on the body as the upstream gets it, after any format
 * conversion), and header_override last. A channel that sets nothing, on a request carrying no field
 * to remove, gets the request back untouched: no parse, no serialisation.
 */
export function shapeUpstreamRequest(request: UpstreamRequest, input: ShapingInput): ShapedRequest {
  const { shaping } = input;
  const headers = shaping.headerOverride ? withHeaderOverride(request.headers, shaping.headerOverride, input.apiKey) : request.headers;
  const withHeaders = headers === request.headers ? request : { ...request, headers };
  if (shaping.passThroughBody) return { request: withHeaders };
  const prompt = input.systemPromptDialect ? shaping.systemPrompt : undefined;
  const override = shaping.paramOverride;
  const strips = input.callerBodies.some((body) => hasDisabledField(body, shaping.allowed));
  if ((!prompt && !strips && !override) || !isJsonBody(request)) return { request: withHeaders };

  // Top-level keys only: the caller's bytes with the keys spliced in, not the whole body serialised again.
  if (!prompt && !strips && override?.kind === 'classic') {
    const raw = typeof request.body === 'string' ? Buffer.from(request.body) : (request.body as Buffer);
    const spliced = withTopLevelFields(raw, override.fields);
    const model = override.fields.model;
    // The override's own keys say what it asks for: the bytes are not parsed for it.
    const outputTokens = outputCeilingOf(override.fields);
    if (spliced)
      return {
        request: { ...withHeaders, body: spliced },
        ...(typeof model === 'string' ? { upstreamModel: model } : {}),
        ...(outputTokens > 0 ? { outputTokens } : {}),
      };
  }

  const text = typeof request.body === 'string' ? request.body : (request.body as Buffer).toString('utf8');
  const parsed = safeParseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return { request: withHeaders };
  const body = parsed.value as Record<string, unknown>;
  const modelBefore = modelOf(body);
  let changed = false;
  let shapedHeaders = withHeaders;
  let outputTokens = 0;
  if (prompt && input.systemPromptDialect) changed = applySystemPrompt(body, prompt, input.systemPromptDialect) || changed;
  if (strips) changed = removeDisabledFields(body, shaping.allowed) || changed;
  if (override) {
    const ceilingBefore = outputCeilingOf(body);
    const outcome = applyParamOverride(body, override, { channel: shaping.headerOverride, caller: input.callerHeaders ?? {} });
    if (outcome.refused) return { refused: outcome.refused };
    changed = outcome.changed || changed;
    if (outcome.headerEdits) shapedHeaders = { ...withHeaders, headers: withHeaderEdits(withHeaders.headers, outcome.headerEdits) };
    // Read off the body already parsed for the override: the hold costs no second parse.
    const ceilingAfter = outputCeilingOf(body);
    if (ceilingAfter > ceilingBefore) outputTokens = ceilingAfter;
  }
  if (!changed) return { request: shapedHeaders };
  const modelAfter = modelOf(body);
  return {
    request: { ...shapedHeaders, body: JSON.stringify(body) },
    ...(modelAfter !== undefined && modelAfter !== modelBefore ? { upstreamModel: modelAfter } : {}),
    ...(outputTokens > 0 ? { outputTokens } : {}),
  };
}
