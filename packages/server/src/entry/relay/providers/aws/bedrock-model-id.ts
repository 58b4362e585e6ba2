/**
 * Anthropic model names → Bedrock model ids. Names already in Bedrock form (`anthropic.…`, a
 * cross-region `us.anthropic.…`, an ARN) pass unchanged, so channels can also map to them directly.
 * Anthropic's undated aliases (`claude-sonnet-4-5`) name the same ids as their dated versions.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html
 * @see https://docs.anthropic.com/en/docs/about-claude/models/overview#model-names
 */
const bedrockIds: Readonly<Record<string, string>> = {
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  // Claude 4
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-sonnet-4-0': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-0': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
  'claude-opus-4-1': 'anthropic.claude-opus-4-1-20250805-v1:0',
  // Claude 4.5
  'claude-sonnet-4-5-20250929': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'claude-sonnet-4-5': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'claude-haiku-4-5-20251001': 'anthropic.claude-haiku-4-5-20251001-v1:0',
  'claude-haiku-4-5': 'anthropic.claude-haiku-4-5-20251001-v1:0',
  'claude-opus-4-5-20251101': 'anthropic.claude-opus-4-5-20251101-v1:0',
  'claude-opus-4-5': 'anthropic.claude-opus-4-5-20251101-v1:0',
};

/**
 * Ids Bedrock serves only through a cross-region inference profile, by the profiles that exist for
 * them: 'regional' models have `us.`, `eu.` and `apac.` profiles; the Claude 4.5 models have no
 * Asia-Pacific profile common to all three (`jp.`, `au.`, `apac.` vary by model), but all have the
 * worldwide `global.` one, which Asia-Pacific regions use.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html
 */
const profileOnly: Readonly<Record<string, 'regional' | 'global-in-asia'>> = {
  'anthropic.claude-3-5-haiku-20241022-v1:0': 'regional',
  'anthropic.claude-3-7-sonnet-20250219-v1:0': 'regional',
  'anthropic.claude-sonnet-4-20250514-v1:0': 'regional',
  'anthropic.claude-opus-4-20250514-v1:0': 'regional',
  'anthropic.claude-opus-4-1-20250805-v1:0': 'regional',
  'anthropic.claude-sonnet-4-5-20250929-v1:0': 'global-in-asia',
  'anthropic.claude-haiku-4-5-20251001-v1:0': 'global-in-asia',
  'anthropic.claude-opus-4-5-20251101-v1:0': 'global-in-asia',
};

function profilePrefix(region: string, profiles: 'regional' | 'global-in-asia'): string {
  if (region.startsWith('eu-')) return 'eu.';
  if (region.startsWith('ap-')) return profiles === 'regional' ? 'apac.' : 'global.';
  return 'us.';
}

export function bedrockModelId(model: string, region: string): string {
  const id = bedrockIds[model];
  if (!id) return model;
  const profiles = profileOnly[id];
  return profiles ? `${profilePrefix(region, profiles)}${id}` : id;
}
