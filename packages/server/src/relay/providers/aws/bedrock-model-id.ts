/**
 * Anthropic model names → Bedrock model ids. Names already in Bedrock form (`anthropic.…`, a
 * cross-region `us.anthropic.…`, an ARN) pass unchanged, so channels can also map to them directly.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html
 */
const bedrockIds: Readonly<Record<string, string>> = {
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
};

/** Models Bedrock serves only through a cross-region inference profile (`us.`, `eu.`, `apac.`). */
const profileOnly = new Set(['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-opus-4-20250514', 'claude-opus-4-1-20250805']);

function profilePrefix(region: string): string {
  if (region.startsWith('eu-')) return 'eu.';
  if (region.startsWith('ap-')) return 'apac.';
  return 'us.';
}

export function bedrockModelId(model: string, region: string): string {
  const id = bedrockIds[model];
  if (!id) return model;
  return profileOnly.has(model) ? `${profilePrefix(region)}${id}` : id;
}
