/**
 * Which Spark model a request goes to. iFlytek serves each model version at its own path and names
 * it again in the body (`domain`); new-api takes the version from the model name's suffix
 * (`SparkDesk-v3.5`), else from the channel's extra field, else v1.1 (Spark Lite).
 * @see https://www.xfyun.cn/doc/spark/Web.html
 */
export interface SparkVersion {
  readonly version: string;
  /** The URL path, e.g. `/v3.5/chat`. */
  readonly path: string;
  readonly domain: string;
  /** Only Max and Ultra take a `system` message; the others get it as a user turn. */
  readonly takesSystemRole: boolean;
}

const defaultVersion = 'v1.1';

/** Documented versions and their domains; an unknown `vX.Y` gets `generalvX.Y`, as new-api sends it. */
const domains: Readonly<Record<string, string>> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.5': 'generalv3.5',
  'v4.0': '4.0Ultra',
  'pro-128k': 'pro-128k',
  'max-32k': 'max-32k',
};

/** The long-context models live under `/chat/<name>` instead of `/<version>/chat`. */
const chatFirstPaths = new Set(['pro-128k', 'max-32k']);
const systemRoleVersions = new Set(['v3.5', 'v4.0', 'max-32k']);

function normalize(version: string): string | undefined {
  const trimmed = version.trim().toLowerCase();
  if (domains[trimmed]) return trimmed;
  if (/^v\d+\.\d+$/.test(trimmed)) return trimmed;
  if (/^\d+\.\d+$/.test(trimmed)) return `v${trimmed}`;
  return undefined;
}

/** The version named by `SparkDesk-<version>`, or the channel's `other`, or v1.1. */
export function resolveSparkVersion(model: string, channelOther: string): SparkVersion {
  const dash = model.indexOf('-');
  const version = (dash >= 0 ? normalize(model.slice(dash + 1)) : undefined) ?? normalize(channelOther) ?? defaultVersion;
  return {
    version,
    path: chatFirstPaths.has(version) ? `/chat/${version}` : `/${version}/chat`,
    domain: domains[version] ?? `general${version}`,
    takesSystemRole: systemRoleVersions.has(version),
  };
}

/** The unsigned WebSocket URL: the channel's base URL (http(s) spelled as ws(s)) or iFlytek's host. */
export function sparkChatUrl(baseUrl: string, version: SparkVersion): string {
  const base = (baseUrl || 'wss://spark-api.xf-yun.com').replace(/^http(s?):\/\//, 'ws$1://');
  return `${base}${version.path}`;
}
