/**
 * The channel-type catalogue: what the console must know about each upstream type (its label, default
 * base URL, the extra form field it shows). What the relay does with a type lives in the server's
 * provider registry, keyed by these numbers. Numbers are new-api's (`constant/channel.go`), so existing
 * databases keep their meaning.
 */
export interface ChannelTypeInfo {
  readonly type: number;
  readonly label: string;
  readonly defaultBaseUrl: string;
  /** The type-specific input the channel form shows, stored in `channels.other` or `base_url`. */
  readonly extraField?:
    | 'azure'
    | 'custom-url'
    | 'private-address'
    | 'suno-address'
    | 'model-version'
    | 'vertex'
    | 'knowledge-base'
    | 'account-id'
    | 'organization'
    | 'api-version'
    | 'bot-id'
    /** An API address the type needs and has no public default for (Dify). */
    | 'api-address';
  /** Models a new channel of this type is filled with by "fill related". */
  readonly defaultModels?: readonly string[];
  /** What the key field expects, for types whose key is not one plain API key. */
  readonly keyFormat?: ChannelKeyFormat;
}

/** The shape the relay needs to use a key at all; a key of another shape is refused on save. */
export type ChannelKeyShape =
  /** Non-empty parts joined by `separator`, as many as one of `counts`. */
  | { readonly kind: 'parts'; readonly separator: '|' | '.'; readonly counts: readonly number[] }
  /** A JSON object with these non-empty string fields. */
  | { readonly kind: 'json'; readonly fields: readonly string[] };

/**
 * The key format a type expects, shown in the console's key field. Migrated new-api databases hold
 * keys in the vendors' native formats; a key typed in another shape would fail at every request.
 */
export interface ChannelKeyFormat {
  /** The format in the vendor's own words, shown verbatim: `APIKey|SecretKey`, `id.secret`. */
  readonly pattern: string;
  /** A sentence the console adds from its locale (`channels:form.keyNote.<note>`). */
  readonly note?: 'service-account' | 'account-id' | 'bot-id' | 'session-token' | 'knowledge-base' | 'dify-app' | 'not-relayed';
  /** Present when the format is strict: the server refuses keys of another shape. */
  readonly shape?: ChannelKeyShape;
}

const pipeParts = (...counts: number[]): ChannelKeyShape => ({ kind: 'parts', separator: '|', counts });

const midjourneyModels = ['mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_uploads'] as const;

export const channelTypes: readonly ChannelTypeInfo[] = [
  {
    type: 1,
    label: 'OpenAI',
    defaultBaseUrl: 'https://api.openai.com',
    extraField: 'organization',
    defaultModels: [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-4.1-mini',
      'o3-mini',
      'text-embedding-3-small',
      'text-embedding-3-large',
      'dall-e-3',
      'whisper-1',
      'tts-1',
    ],
  },
  { type: 2, label: 'Midjourney Proxy', defaultBaseUrl: '', defaultModels: midjourneyModels },
  { type: 3, label: 'Azure OpenAI', defaultBaseUrl: '', extraField: 'azure', defaultModels: ['gpt-4o', 'gpt-4o-mini', 'gpt-35-turbo'] },
  { type: 4, label: 'Ollama', defaultBaseUrl: 'http://localhost:11434', defaultModels: ['llama3.1', 'qwen2.5'] },
  {
    type: 5,
    label: 'Midjourney Proxy Plus',
    defaultBaseUrl: '',
    defaultModels: [
      ...midjourneyModels,
      'swap_face',
      'mj_zoom',
      'mj_shorten',
      'mj_modal',
      'mj_inpaint',
      'mj_custom_zoom',
      'mj_high_variation',
      'mj_low_variation',
      'mj_pan',
    ],
  },
  { type: 6, label: 'OpenAI Max', defaultBaseUrl: 'https://api.openaimax.com' },
  { type: 7, label: 'OhMyGPT', defaultBaseUrl: 'https://api.ohmygpt.com' },
  { type: 8, label: '自定义渠道 / Custom', defaultBaseUrl: '', extraField: 'custom-url' },
  { type: 9, label: 'AILS', defaultBaseUrl: 'https://api.caipacity.com' },
  { type: 10, label: 'AI Proxy', defaultBaseUrl: 'https://api.aiproxy.io' },
  {
    type: 11,
    label: 'Google PaLM2',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    defaultModels: ['PaLM-2'],
    keyFormat: { pattern: 'API Key', note: 'not-relayed' },
  },
  { type: 12, label: 'API2GPT', defaultBaseUrl: 'https://api.api2gpt.com' },
  { type: 13, label: 'AIGC2D', defaultBaseUrl: 'https://api.aigc2d.com' },
  {
    type: 14,
    label: 'Anthropic Claude',
    defaultBaseUrl: 'https://api.anthropic.com',
    defaultModels: ['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-opus-4-20250514'],
  },
  {
    type: 15,
    label: '百度文心千帆 / Baidu',
    defaultBaseUrl: 'https://aip.baidubce.com',
    defaultModels: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K'],
    keyFormat: { pattern: 'APIKey|SecretKey', shape: pipeParts(2) },
  },
  {
    type: 16,
    label: '智谱 ChatGLM / Zhipu',
    defaultBaseUrl: 'https://open.bigmodel.cn',
    defaultModels: ['chatglm_turbo', 'chatglm_pro'],
    keyFormat: { pattern: 'id.secret', shape: { kind: 'parts', separator: '.', counts: [2] } },
  },
  {
    type: 17,
    label: '阿里通义千问 / Alibaba',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
    defaultModels: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'text-embedding-v1'],
  },
  {
    type: 18,
    label: '讯飞星火认知 / iFlytek',
    defaultBaseUrl: '',
    extraField: 'model-version',
    defaultModels: ['SparkDesk', 'SparkDesk-v3.5'],
    keyFormat: { pattern: 'APPID|APISecret|APIKey', shape: pipeParts(3) },
  },
  { type: 19, label: '360 智脑', defaultBaseUrl: 'https://ai.360.cn', defaultModels: ['360GPT_S2_V9'] },
  { type: 20, label: 'OpenRouter', defaultBaseUrl: 'https://openrouter.ai/api' },
  {
    type: 21,
    label: '知识库：AI Proxy',
    defaultBaseUrl: 'https://api.aiproxy.io',
    extraField: 'knowledge-base',
    keyFormat: { pattern: 'API Key', note: 'knowledge-base' },
  },
  { type: 22, label: '知识库：FastGPT', defaultBaseUrl: 'https://fastgpt.run/api/openapi', extraField: 'private-address' },
  {
    type: 23,
    label: '腾讯混元 / Tencent',
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    defaultModels: ['hunyuan-lite', 'hunyuan-standard'],
    keyFormat: { pattern: 'AppId|SecretId|SecretKey', shape: pipeParts(3) },
  },
  {
    type: 24,
    label: 'Google Gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    extraField: 'api-version',
    defaultModels: ['gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-2.5-pro', 'text-embedding-004'],
  },
  { type: 25, label: 'Moonshot', defaultBaseUrl: 'https://api.moonshot.cn', defaultModels: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'] },
  { type: 26, label: '智谱 GLM-4V', defaultBaseUrl: 'https://open.bigmodel.cn', defaultModels: ['glm-4', 'glm-4v', 'glm-4-flash'] },
  { type: 27, label: 'Perplexity', defaultBaseUrl: 'https://api.perplexity.ai', defaultModels: ['sonar', 'sonar-pro'] },
  { type: 31, label: '零一万物 / 01.AI', defaultBaseUrl: 'https://api.lingyiwanwu.com', defaultModels: ['yi-large', 'yi-medium'] },
  {
    type: 33,
    label: 'AWS Claude',
    defaultBaseUrl: '',
    defaultModels: ['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514'],
    keyFormat: { pattern: 'AccessKeyId|SecretAccessKey|Region', note: 'session-token', shape: pipeParts(3, 4) },
  },
  { type: 34, label: 'Cohere', defaultBaseUrl: 'https://api.cohere.ai', defaultModels: ['command-r', 'command-r-plus', 'rerank-english-v3.0'] },
  { type: 35, label: 'MiniMax', defaultBaseUrl: 'https://api.minimax.chat', defaultModels: ['abab6.5s-chat'] },
  { type: 36, label: 'Suno API', defaultBaseUrl: '', extraField: 'suno-address', defaultModels: ['suno_music', 'suno_lyrics'] },
  { type: 37, label: 'Dify', defaultBaseUrl: '', extraField: 'api-address', keyFormat: { pattern: 'app-…', note: 'dify-app' } },
  { type: 38, label: 'Jina', defaultBaseUrl: 'https://api.jina.ai', defaultModels: ['jina-embeddings-v3', 'jina-reranker-v2-base-multilingual'] },
  {
    type: 39,
    label: 'Cloudflare',
    defaultBaseUrl: 'https://api.cloudflare.com',
    extraField: 'account-id',
    defaultModels: ['@cf/meta/llama-3.1-8b-instruct'],
    keyFormat: { pattern: 'API Token', note: 'account-id' },
  },
  { type: 40, label: 'SiliconCloud', defaultBaseUrl: 'https://api.siliconflow.cn', defaultModels: ['deepseek-ai/DeepSeek-V3', 'Qwen/Qwen2.5-72B-Instruct'] },
  {
    type: 41,
    label: 'Vertex AI',
    defaultBaseUrl: '',
    extraField: 'vertex',
    defaultModels: ['gemini-2.0-flash', 'gemini-2.5-pro', 'claude-3-7-sonnet@20250219'],
    keyFormat: {
      pattern: '{ "type": "service_account", "project_id": "…", "private_key": "…", "client_email": "…" }',
      note: 'service-account',
      shape: { kind: 'json', fields: ['project_id', 'private_key', 'client_email'] },
    },
  },
  { type: 42, label: 'Mistral AI', defaultBaseUrl: 'https://api.mistral.ai', defaultModels: ['mistral-large-latest', 'mistral-small-latest', 'mistral-embed'] },
  { type: 43, label: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com', defaultModels: ['deepseek-chat', 'deepseek-reasoner'] },
  { type: 44, label: 'MokaAI', defaultBaseUrl: 'https://api.moka.ai' },
  { type: 45, label: '字节火山方舟 / VolcEngine', defaultBaseUrl: 'https://ark.cn-beijing.volces.com' },
  { type: 46, label: '百度千帆 V2 / Baidu V2', defaultBaseUrl: 'https://qianfan.baidubce.com' },
  { type: 47, label: 'Xinference', defaultBaseUrl: '' },
  { type: 48, label: 'xAI', defaultBaseUrl: 'https://api.x.ai', defaultModels: ['grok-3', 'grok-3-mini'] },
  { type: 49, label: 'Coze', defaultBaseUrl: 'https://api.coze.cn', extraField: 'bot-id', keyFormat: { pattern: 'pat_…', note: 'bot-id' } },
];

const byType = new Map(channelTypes.map((info) => [info.type, info]));

export function findChannelType(type: number): ChannelTypeInfo | undefined {
  return byType.get(type);
}
