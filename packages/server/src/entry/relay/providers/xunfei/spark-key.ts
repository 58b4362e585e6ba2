/** The three credentials of an iFlytek application, as a channel key `APPID|APISecret|APIKey` holds them. */
export interface SparkCredentials {
  readonly appId: string;
  readonly apiSecret: string;
  readonly apiKey: string;
}

/** Reads `APPID|APISecret|APIKey` (new-api's order); undefined when a part is missing. */
export function parseSparkKey(key: string): SparkCredentials | undefined {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length !== 3) return undefined;
  const [appId, apiSecret, apiKey] = parts as [string, string, string];
  if (!appId || !apiSecret || !apiKey) return undefined;
  return { appId, apiSecret, apiKey };
}
