import { callerHeadersOf } from '../../pipeline/answer-format.ts';
import type { ChannelTarget, Provider, RelayRequest, Transport, UpstreamRequest } from '../../provider.ts';
import { claudeChatResponse, claudeRequestFromRelay } from '../claude/claude-chat.ts';
import { claudeNativeFor } from '../claude/claude-native-answer.ts';
import { parseAwsKey } from './aws-key.ts';
import { bedrockModelId } from './bedrock-model-id.ts';
import { parseBedrockError } from './parse-bedrock-error.ts';

/** The Messages API version Bedrock expects in the body (it replaces the `anthropic-version` header). */
const bedrockAnthropicVersion = 'bedrock-2023-05-31';

/** Bedrock takes Anthropic beta flags in the body (`anthropic_beta`), not as a header. */
function betaField(request: RelayRequest): { anthropic_beta?: string[] } {
  const beta = callerHeadersOf(request.body, 'anthropic')['anthropic-beta'];
  return beta
    ? {
        anthropic_beta: beta
          .split(',')
          .map((flag) => flag.trim())
          .filter(Boolean),
      }
    : {};
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { body, warnings } = claudeRequestFromRelay(request);
  const region = parseAwsKey(target.key)?.region ?? 'us-east-1';
  // Bedrock takes the model in the URL and streaming from the operation, not from the body.
  const { model, stream: _stream, ...rest } = body;
  const endpoint = target.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`;
  const operation = request.stream ? 'invoke-with-response-stream' : 'invoke';
  return {
    url: `${endpoint}/model/${encodeURIComponent(bedrockModelId(model, region))}/${operation}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ anthropic_version: bedrockAnthropicVersion, ...rest, ...betaField(request) }),
    warnings,
  };
}

/** The AWS SDK (about 30 MB) is loaded on the first Bedrock call, not by every instance at start. */
const lazyBedrockTransport: Transport = {
  async send(request, options) {
    const { bedrockTransport } = await import('./bedrock-transport.ts');
    return bedrockTransport.send(request, options);
  },
};

/**
 * Claude on AWS Bedrock (channel type 33): the Claude converters, a SigV4-signing transport, the key
 * as `AccessKeyId|SecretAccessKey|Region`. A channel base URL replaces the regional endpoint.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html
 */
export const awsProvider: Provider = {
  id: 'aws',
  channelTypes: [33],
  transport: lazyBedrockTransport,
  chat: { buildRequest: buildChatRequest, response: claudeChatResponse, nativeAnswer: claudeNativeFor },
  parseError: parseBedrockError,
};
