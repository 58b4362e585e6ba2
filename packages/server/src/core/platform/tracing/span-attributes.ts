/**
 * Attribute names of the spans. The GenAI ones are copied rather than imported: the semantic
 * conventions package marks them experimental and moved to the GenAI conventions repository, and
 * its own advice is to copy incubating names so an upgrade cannot rename them under us.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestStream: 'gen_ai.request.stream',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
} as const;

/** What only Switchboard knows: who was billed, what, and how the channels were tried. Never a key. */
export const switchboard = {
  requestId: 'switchboard.request_id',
  userId: 'switchboard.user_id',
  tokenId: 'switchboard.token_id',
  quota: 'switchboard.quota',
  quotaHeld: 'switchboard.quota_held',
  channelId: 'switchboard.channel.id',
  channelName: 'switchboard.channel.name',
  channelType: 'switchboard.channel.type',
  attempt: 'switchboard.attempt',
  retryReason: 'switchboard.retry_reason',
  timeToFirstByteMs: 'switchboard.time_to_first_byte_ms',
  callerGone: 'switchboard.caller_gone',
} as const;

/** GenAI's operation names for the relay's capabilities; the others keep the capability's own name. */
const operations: Readonly<Record<string, string>> = {
  chat: 'chat',
  responses: 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
};

export function operationName(capability: string): string {
  return operations[capability] ?? capability;
}

/** GenAI's provider names where the conventions have one; otherwise the relay's provider id. */
const providers: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure.ai.openai',
  claude: 'anthropic',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  aws: 'aws.bedrock',
  cohere: 'cohere',
  deepseek: 'deepseek',
  mistral: 'mistral_ai',
  perplexity: 'perplexity',
  xai: 'x_ai',
};

export function providerName(providerId: string): string {
  return providers[providerId] ?? providerId;
}
