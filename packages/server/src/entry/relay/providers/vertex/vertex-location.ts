import { safeParseJson } from '../../../../core/platform/safe-json.ts';

/** Where a model runs when the channel names no region (us-central1, the channel form's default). */
export const defaultVertexRegion = 'us-central1';

/**
 * The channel's `other` field: a single region (`europe-west1`), or a JSON map of model → region
 * with a `default` entry, because Vertex serves some models (often the Claude ones) only in
 * certain regions.
 */
export function vertexRegion(other: string, model: string): string {
  const text = other.trim();
  if (!text) return defaultVertexRegion;
  if (!text.startsWith('{')) return text;
  const parsed = safeParseJson(text);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') return defaultVertexRegion;
  const map = parsed.value as Record<string, unknown>;
  const region = map[model] ?? map.default;
  return typeof region === 'string' && region ? region : defaultVertexRegion;
}

/**
 * `https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`;
 * region `global` has no prefix; a channel base URL replaces the host.
 * @see https://cloud.google.com/vertex-ai/docs/reference/rest
 */
export function vertexModelUrl(options: {
  baseUrl: string;
  region: string;
  project: string;
  publisher: 'google' | 'anthropic';
  model: string;
  method: string;
}): string {
  const host = options.baseUrl || (options.region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${options.region}-aiplatform.googleapis.com`);
  return `${host}/v1/projects/${options.project}/locations/${options.region}/publishers/${options.publisher}/models/${options.model}:${options.method}`;
}

/**
 * Vertex ids that are not the Anthropic id with its date after an at sign: Claude 3.5 Sonnet's
 * October 2024 upgrade is published on Vertex as a second version of the model.
 * @see https://docs.anthropic.com/en/docs/about-claude/models/overview#model-names
 */
const vertexClaudeIds: Readonly<Record<string, string>> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

/** Anthropic names versions with a dash, Vertex with an at sign: `claude-3-5-haiku-20241022` → `claude-3-5-haiku@20241022`. */
export function vertexClaudeModel(model: string): string {
  if (model.includes('@')) return model;
  return vertexClaudeIds[model] ?? model.replace(/-(\d{8})$/, '@$1');
}
