/** The credentials of an AWS channel, read from its key. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly region: string;
}

/**
 * new-api's key format: `AccessKeyId|SecretAccessKey|Region`, and for temporary credentials
 * `AccessKeyId|SecretAccessKey|SessionToken|Region`. Returns undefined for anything else.
 */
export function parseAwsKey(key: string): AwsCredentials | undefined {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length === 3 && parts.every(Boolean)) return { accessKeyId: parts[0] ?? '', secretAccessKey: parts[1] ?? '', region: parts[2] ?? '' };
  if (parts.length === 4 && parts.every(Boolean))
    return { accessKeyId: parts[0] ?? '', secretAccessKey: parts[1] ?? '', sessionToken: parts[2] ?? '', region: parts[3] ?? '' };
  return undefined;
}
