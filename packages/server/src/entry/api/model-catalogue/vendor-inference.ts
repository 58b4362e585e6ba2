/**
 * Which vendor made a model, from its name alone: what new-api's "sync from upstream" reads from an
 * official JSON on the internet (controller/model_sync.go), and what its pricing page guesses with
 * `defaultVendorRules` (model/pricing_default.go). We cannot reach that JSON, so a sync infers the
 * vendor here. Unlike new-api's rules (a Go map, so `contains` checks run in random order and `yi`
 * matches inside other names), these are ordered prefixes of the name's last path segment, so
 * `deepseek-ai/DeepSeek-V3` and `Qwen/Qwen2.5-72B` are read as the model they name.
 */
export interface KnownVendor {
  /** The name a sync gives a vendor it creates. */
  readonly name: string;
  /** Names new-api gives the same vendor, so an imported database's vendor row is reused. */
  readonly aliases: readonly string[];
  /** new-api's @lobehub/icons key for it (`defaultVendorIcons`). */
  readonly icon: string;
  readonly prefixes: readonly string[];
}

const knownVendors: readonly KnownVendor[] = [
  {
    name: 'OpenAI',
    aliases: [],
    icon: 'OpenAI',
    prefixes: [
      'gpt',
      'chatgpt',
      'o1',
      'o3',
      'o4',
      'dall-e',
      'whisper',
      'tts-',
      'text-embedding',
      'text-moderation',
      'omni-moderation',
      'davinci',
      'babbage',
      'codex',
      'sora',
    ],
  },
  { name: 'Anthropic', aliases: [], icon: 'Claude.Color', prefixes: ['claude'] },
  { name: 'Google', aliases: [], icon: 'Gemini.Color', prefixes: ['gemini', 'gemma', 'imagen', 'veo-', 'text-bison', 'chat-bison'] },
  { name: 'DeepSeek', aliases: [], icon: 'DeepSeek.Color', prefixes: ['deepseek'] },
  { name: 'Alibaba', aliases: ['阿里巴巴'], icon: 'Qwen.Color', prefixes: ['qwen', 'qwq', 'qvq'] },
  { name: 'Zhipu', aliases: ['智谱'], icon: 'Zhipu.Color', prefixes: ['glm', 'chatglm', 'cogview', 'cogvideo'] },
  { name: 'Baidu', aliases: ['百度'], icon: 'Wenxin.Color', prefixes: ['ernie'] },
  { name: 'Moonshot', aliases: [], icon: 'Moonshot', prefixes: ['moonshot', 'kimi'] },
  { name: 'MiniMax', aliases: [], icon: 'Minimax.Color', prefixes: ['abab', 'minimax'] },
  { name: 'iFlytek', aliases: ['讯飞'], icon: 'Spark.Color', prefixes: ['spark'] },
  { name: 'Tencent', aliases: ['腾讯'], icon: 'Hunyuan.Color', prefixes: ['hunyuan'] },
  { name: 'Cohere', aliases: [], icon: 'Cohere.Color', prefixes: ['command', 'embed-', 'rerank-', 'c4ai'] },
  { name: 'Jina', aliases: [], icon: 'Jina', prefixes: ['jina'] },
  { name: 'Mistral', aliases: [], icon: 'Mistral.Color', prefixes: ['mistral', 'mixtral', 'codestral', 'pixtral', 'ministral', 'open-mistral', 'magistral'] },
  { name: 'xAI', aliases: [], icon: 'XAI', prefixes: ['grok'] },
  { name: 'Meta', aliases: [], icon: 'Ollama', prefixes: ['llama', 'meta-llama'] },
  { name: 'ByteDance', aliases: ['字节跳动'], icon: 'Doubao.Color', prefixes: ['doubao', 'seed'] },
  { name: '01.AI', aliases: ['零一万物'], icon: 'Yi.Color', prefixes: ['yi-'] },
  { name: 'Kuaishou', aliases: ['快手'], icon: 'Kling.Color', prefixes: ['kling'] },
  { name: 'Jimeng', aliases: ['即梦'], icon: 'Jimeng.Color', prefixes: ['jimeng'] },
  { name: 'Vidu', aliases: [], icon: 'Vidu', prefixes: ['vidu'] },
  { name: 'Xiaomi', aliases: [], icon: 'Xiaomi', prefixes: ['mimo', 'xiaomi'] },
];

const cloudflare: KnownVendor = { name: 'Cloudflare', aliases: [], icon: 'Cloudflare.Color', prefixes: ['@cf/'] };

/** The vendor a model name suggests, or undefined when none of the rules fits. */
export function inferVendor(modelName: string): KnownVendor | undefined {
  const lower = modelName.trim().toLowerCase();
  // Workers AI names (`@cf/meta/llama-3-8b-instruct`) are served by Cloudflare whatever the model.
  if (lower.startsWith('@cf/')) return cloudflare;
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  return knownVendors.find((vendor) => vendor.prefixes.some((prefix) => base.startsWith(prefix)));
}

/** Whether a stored vendor name is this known vendor (its name or one of new-api's names for it). */
export function isNamedAs(vendor: KnownVendor, storedName: string): boolean {
  const lower = storedName.trim().toLowerCase();
  return [vendor.name, ...vendor.aliases].some((name) => name.toLowerCase() === lower);
}
