import type { Provider } from '../provider.ts';
import { aigc2dProvider } from './aigc2d/index.ts';
import { aliProvider } from './ali/index.ts';
import { api2gptProvider } from './api2gpt/index.ts';
import { awsProvider } from './aws/index.ts';
import { azureProvider } from './azure/index.ts';
import { baiduV2Provider } from './baidu-v2/index.ts';
import { claudeProvider } from './claude/index.ts';
import { customProvider } from './custom/index.ts';
import { deepseekProvider } from './deepseek/index.ts';
import { geminiProvider } from './gemini/index.ts';
import { jinaProvider } from './jina/index.ts';
import { lingyiwanwuProvider } from './lingyiwanwu/index.ts';
import { mistralProvider } from './mistral/index.ts';
import { moonshotProvider } from './moonshot/index.ts';
import { ollamaProvider } from './ollama/index.ts';
import { openaiProvider } from './openai/index.ts';
import { openaiAlikeProvider } from './openai-alike/index.ts';
import { openrouterProvider } from './openrouter/index.ts';
import { perplexityProvider } from './perplexity/index.ts';
import { siliconcloudProvider } from './siliconcloud/index.ts';
import { vertexProvider } from './vertex/index.ts';
import { volcengineProvider } from './volcengine/index.ts';
import { xaiProvider } from './xai/index.ts';
import { zhipuV4Provider } from './zhipu-v4/index.ts';

/** Every provider the relay knows. Adding one: a folder under providers/ and one line here. */
export const providers: readonly Provider[] = [
  openaiProvider,
  openaiAlikeProvider,
  api2gptProvider,
  aigc2dProvider,
  customProvider,
  deepseekProvider,
  moonshotProvider,
  mistralProvider,
  siliconcloudProvider,
  lingyiwanwuProvider,
  ollamaProvider,
  openrouterProvider,
  perplexityProvider,
  xaiProvider,
  jinaProvider,
  zhipuV4Provider,
  aliProvider,
  volcengineProvider,
  baiduV2Provider,
  claudeProvider,
  geminiProvider,
  azureProvider,
  awsProvider,
  vertexProvider,
];

/**
 * Channel types of the catalogue that the relay does not serve (yet), with the reason. A channel of
 * such a type is never selected; the registry test fails when a type is in neither list.
 */
export const notYetRelayed: Readonly<Record<number, string>> = {
  2: 'Midjourney proxy: task routes under /mj, not the OpenAI relay',
  5: 'Midjourney proxy plus: task routes under /mj',
  11: 'Google PaLM2: retired vendor API',
  15: 'Baidu ERNIE v1: native signed API',
  16: 'Zhipu ChatGLM v3: native JWT-signed API',
  18: 'iFlytek Spark: WebSocket API',
  21: 'AI Proxy knowledge base: not a model API',
  23: 'Tencent Hunyuan: native TC3-signed API',
  34: 'Cohere: native API',
  35: 'MiniMax: native API',
  36: 'Suno: task routes under /suno',
  37: 'Dify: native app API',
  39: 'Cloudflare Workers AI: account-scoped URLs',
  44: 'MokaAI: native API',
  49: 'Coze: native bot API',
};

const byChannelType = new Map<number, Provider>();
for (const provider of providers) {
  for (const type of provider.channelTypes) {
    if (byChannelType.has(type)) throw new Error(`Channel type ${type} is claimed by two providers`);
    byChannelType.set(type, provider);
  }
}

/** The provider that relays a channel type, or undefined when the type is not relayed. */
export function providerForChannelType(type: number): Provider | undefined {
  return byChannelType.get(type);
}

/**
 * The model listing new-api tries for every type without one of its own: OpenAI's `GET /v1/models`
 * with the bearer key, over plain HTTP.
 */
export { listOpenAIModels as listModelsTheOpenAIWay } from './openai-compatible/account-readers.ts';
