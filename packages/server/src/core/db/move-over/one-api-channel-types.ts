/**
 * What one-api's channel type numbers mean in ours (new-api's). Both count the same way up to 25,
 * except 2, 4 and 5; from 26 on one-api's list (relay/channeltype/define.go at 8df4a26) diverges
 * completely. Numbers missing here mean the same vendor in both.
 *
 * - `type`: our number for the vendor. OpenAI-compatible vendors we have no type of our own for
 *   become OpenAI (1) at the vendor's address: `baseUrl` is one-api's default for that type
 *   (relay/channeltype/url.go), written only when the channel's own base URL is empty.
 * - `unsupported`: nothing of ours speaks that vendor's API; the channel is disabled rather than left
 *   with a number that here means another vendor (its key would be sent there).
 */
export interface OneApiChannelType {
  readonly vendor: string;
  readonly type: number;
  readonly baseUrl?: string;
  readonly unsupported?: true;
}

const openAiAt = (vendor: string, baseUrl: string): OneApiChannelType => ({ vendor, type: 1, baseUrl });
const same = (vendor: string, type: number, baseUrl?: string): OneApiChannelType => ({ vendor, type, ...(baseUrl ? { baseUrl } : {}) });
const unsupported = (vendor: string, type: number): OneApiChannelType => ({ vendor, type, unsupported: true });

export const oneApiChannelTypes: Readonly<Record<number, OneApiChannelType>> = {
  2: openAiAt('API2D', 'https://oa.api2d.net'),
  4: openAiAt('CloseAI', 'https://api.closeai-proxy.xyz'),
  5: openAiAt('OpenAI-SB', 'https://api.openai-sb.com'),
  26: openAiAt('Baichuan', 'https://api.baichuan-ai.com'),
  27: same('MiniMax', 35),
  28: same('Mistral', 42),
  29: openAiAt('Groq', 'https://api.groq.com/openai'),
  30: same('Ollama', 4),
  32: openAiAt('StepFun', 'https://api.stepfun.com'),
  34: same('Coze', 49, 'https://api.coze.com'),
  35: same('Cohere', 34),
  36: same('DeepSeek', 43),
  37: same('Cloudflare', 39),
  38: unsupported('DeepL', 38),
  39: openAiAt('Together AI', 'https://api.together.xyz'),
  40: same('Doubao', 45),
  // Novita's OpenAI API is at /v3/openai/chat/completions, which no base URL of ours can produce.
  41: unsupported('Novita', 41),
  42: same('Vertex AI', 41),
  43: unsupported('Proxy', 43),
  44: same('SiliconFlow', 40),
  45: same('xAI', 48),
  46: unsupported('Replicate', 46),
  47: same('Baidu V2', 46),
  48: openAiAt('Xunfei Spark (OpenAI)', 'https://spark-api-open.xf-yun.com'),
  49: openAiAt('Ali Bailian', 'https://dashscope.aliyuncs.com/compatible-mode'),
  50: same('OpenAI compatible', 1),
  51: same('Gemini (OpenAI compatible)', 24),
};

/**
 * one-api keeps per-type settings in the `config` JSON (model/channel.go ChannelConfig) where
 * new-api, and so we, read `other`: the field each of our types takes from there.
 */
export const otherFromOneApiConfig: Readonly<Record<number, string>> = {
  3: 'api_version',
  17: 'plugin',
  18: 'api_version',
  21: 'library_id',
  24: 'api_version',
  39: 'user_id',
  41: 'region',
};
