import type { Provider } from '../provider.ts';
import { aigc2dProvider } from './aigc2d/index.ts';
import { aiproxyLibraryProvider } from './aiproxy-library/index.ts';
import { aliProvider } from './ali/index.ts';
import { api2gptProvider } from './api2gpt/index.ts';
import { awsProvider } from './aws/index.ts';
import { azureProvider } from './azure/index.ts';
import { baiduProvider } from './baidu/index.ts';
import { baiduV2Provider } from './baidu-v2/index.ts';
import { claudeProvider } from './claude/index.ts';
import { cloudflareProvider } from './cloudflare/index.ts';
import { cohereProvider } from './cohere/index.ts';
import { cozeProvider } from './coze/index.ts';
import { customProvider } from './custom/index.ts';
import { deepseekProvider } from './deepseek/index.ts';
import { difyProvider } from './dify/index.ts';
import { geminiProvider } from './gemini/index.ts';
import { jinaProvider } from './jina/index.ts';
import { lingyiwanwuProvider } from './lingyiwanwu/index.ts';
import { minimaxProvider } from './minimax/index.ts';
import { mistralProvider } from './mistral/index.ts';
import { mokaaiProvider } from './mokaai/index.ts';
import { moonshotProvider } from './moonshot/index.ts';
import { ollamaProvider } from './ollama/index.ts';
import { openaiProvider } from './openai/index.ts';
import { openaiAlikeProvider } from './openai-alike/index.ts';
import { openrouterProvider } from './openrouter/index.ts';
import { perplexityProvider } from './perplexity/index.ts';
import { siliconcloudProvider } from './siliconcloud/index.ts';
import { tencentProvider } from './tencent/index.ts';
import { vertexProvider } from './vertex/index.ts';
import { volcengineProvider } from './volcengine/index.ts';
import { xaiProvider } from './xai/index.ts';
import { xunfeiProvider } from './xunfei/index.ts';
import { zhipuV4Provider } from './zhipu-v4/index.ts';
import { zhipuProvider } from './zhipu/index.ts';

/** Every provider the relay knows. Adding one: a folder under providers/ and one line here. */
export const providers: readonly Provider[] = [
  openaiProvider,
  openaiAlikeProvider,
  api2gptProvider,
  aigc2dProvider,
  aiproxyLibraryProvider,
  customProvider,
  deepseekProvider,
  difyProvider,
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
  zhipuProvider,
  minimaxProvider,
  mokaaiProvider,
  aliProvider,
  volcengineProvider,
  baiduV2Provider,
  baiduProvider,
  claudeProvider,
  cohereProvider,
  cozeProvider,
  geminiProvider,
  azureProvider,
  awsProvider,
  vertexProvider,
  tencentProvider,
  xunfeiProvider,
  cloudflareProvider,
];

/**
 * Channel types of the catalogue that the relay does not serve (yet), with the reason. A channel of
 * such a type is never selected; the registry test fails when a type is in neither list nor a task
 * channel type (Midjourney and Suno, relayed by tasks/ under /mj and /suno).
 */
export const notYetRelayed: Readonly<Record<number, string>> = {
  11: 'Google PaLM2: Google has shut down the PaLM API; serve these models from a Gemini channel (type 24) instead',
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
