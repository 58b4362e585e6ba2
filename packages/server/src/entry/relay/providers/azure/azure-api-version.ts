import type { ChannelTarget, RelayRequest } from '../../provider.ts';

/** The channel form's default API version (2023-06-01-preview), used when `other` is empty. */
export const defaultAzureApiVersion = '2023-06-01-preview';

/** The API version a channel's requests carry: the channel's `other` field, else the spec's default. */
export function azureApiVersion(target: ChannelTarget): string {
  return target.other.trim() || defaultAzureApiVersion;
}

/**
 * The date of a dated version (`2024-10-21`, `2024-09-01-preview`); undefined for the undated
 * aliases of the v1 API (`preview`, `latest`), which have every current feature.
 */
function versionDate(apiVersion: string): string | undefined {
  return /^(\d{4}-\d{2}-\d{2})(?:-preview)?$/.exec(apiVersion.trim())?.[1];
}

function isAtLeast(apiVersion: string, firstDate: string): boolean {
  const date = versionDate(apiVersion);
  return date === undefined || date >= firstDate;
}

/**
 * `stream_options` (usage in the last chunk) arrived with 2024-09-01-preview; older versions answer
 * 400 "Unrecognized request argument supplied: stream_options".
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/api-version-lifecycle
 */
export function supportsStreamOptions(apiVersion: string): boolean {
  return isAtLeast(apiVersion, '2024-09-01');
}

/** `tools` and `tool_choice` arrived with 2023-12-01-preview (before that only `functions`). */
export function supportsTools(apiVersion: string): boolean {
  return isAtLeast(apiVersion, '2023-12-01');
}

/**
 * The request without `stream_options` when the channel's API version does not know it. The
 * pipeline asks every stream for usage; without it the stream is counted locally, which the
 * pipeline already does for any stream that ends without usage.
 */
export function withoutUnsupportedStreamOptions(request: RelayRequest, apiVersion: string): { request: RelayRequest; warnings: string[] } {
  if (!request.body || !('stream_options' in request.body) || supportsStreamOptions(apiVersion)) return { request, warnings: [] };
  const { stream_options: _dropped, ...body } = request.body;
  return { request: { ...request, body, bodyChanged: true }, warnings: [`stream_options dropped: Azure API version ${apiVersion} does not accept it`] };
}
