import type { OpenAIChatCompletion } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { normalizeZhipuUsage, toOpenAIUsage } from './convert-usage.ts';
import { zhipuResponseSchema } from './zhipu-api.ts';

/**
 * `invoke` returns the answer as a JSON string literal inside `content` ("\"Hello\\nthere\""): it is
 * decoded when it is one, else only its surrounding quotes are removed (what new-api does).
 */
export function decodeZhipuContent(content: string): string {
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    const decoded = safeParseJson(content);
    if (decoded.ok && typeof decoded.value === 'string') return decoded.value;
  }
  return content.replace(/^"+|"+$/g, '');
}

/** A complete `invoke` answer → an OpenAI chat completion; v3 has no finish reason, so it is "stop". */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = zhipuResponseSchema.safeParse(body);
  const data = parsed.success ? parsed.data.data : undefined;
  const choices = data?.choices ?? [];
  const completion: OpenAIChatCompletion = {
    id: data?.task_id ? `chatcmpl-${data.task_id}` : `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices: (choices.length > 0 ? choices : [{ content: '' }]).map((choice, index) => ({
      index,
      message: { role: 'assistant', content: decodeZhipuContent(choice.content ?? '') },
      finish_reason: 'stop',
    })),
  };
  if (!data?.usage) return { body: completion };
  const usage = normalizeZhipuUsage(data.usage);
  completion.usage = toOpenAIUsage(usage);
  return { body: completion, usage };
}
