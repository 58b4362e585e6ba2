/**
 * Wenxin Workshop addresses each model by an endpoint name in the URL, not by a body field. The
 * names of models whose endpoint differs from their lowercased name, as new-api maps them (its
 * users' channels list these model names); any other model goes to its lowercased name, which is
 * how Baidu names the endpoints of newer models and of custom deployments.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Nlks5zkzu (model list and endpoints)
 */
const endpointByModel: Readonly<Record<string, string>> = {
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-3.5-8K-0205': 'ernie-3.5-8k-0205',
  'ERNIE-3.5-8K-1222': 'ernie-3.5-8k-1222',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-3.5-4K-0205': 'ernie-3.5-4k-0205',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export function baiduEndpoint(model: string): string {
  return endpointByModel[model] ?? model.toLowerCase();
}

const wenxinPath = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

/** The chat URL without its `access_token`, which the transport adds at send time. */
export function baiduChatUrl(baseUrl: string, model: string): string {
  return `${baseUrl}${wenxinPath}/chat/${baiduEndpoint(model)}`;
}

export function baiduEmbeddingsUrl(baseUrl: string, model: string): string {
  return `${baseUrl}${wenxinPath}/embeddings/${baiduEndpoint(model)}`;
}
