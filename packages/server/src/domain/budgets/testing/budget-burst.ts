import { defaultOutputLimit } from '../../billing/output-limits.ts';
import type { FakeOpenAIUpstream } from '../../../entry/relay/testing/fake-openai-upstream.ts';

/** A model priced at ratio 1 whose every answer costs exactly its worst case (see budget tests). */
export const budgetModel = 'budget-model';
/** "Hello" is estimated at 2 prompt tokens; without max_tokens the answer may use the whole output limit, and does. */
export const promptTokens = 2;
export const answerCost = promptTokens + defaultOutputLimit;
const body = JSON.stringify({ model: budgetModel, messages: [{ role: 'user', content: 'Hello' }] });

/**
 * Sends `count` requests at once, spread over `baseUrls` in turn, and holds every upstream answer
 * until each request has either reached the upstream or been refused: the admitted ones are all in
 * flight together whatever the machine's speed. Answers "ok" or "<status> <code>" per request.
 */
export async function burstTogether(fake: FakeOpenAIUpstream, baseUrls: readonly string[], apiKey: string, count: number): Promise<string[]> {
  let decided = 0;
  let release: () => void = () => undefined;
  const everyoneDecided = new Promise<void>((resolve) => (release = resolve));
  const decide = () => {
    decided += 1;
    if (decided === count) release();
  };
  fake.beforeAnswer = () => {
    decide();
    return everyoneDecided;
  };
  try {
    return await Promise.all(
      Array.from({ length: count }, async (_unused, index) => {
        const response = await fetch(`${baseUrls[index % baseUrls.length]}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as { error?: { code: string } };
        if (response.status !== 200) {
          decide();
          return `${response.status} ${answer.error?.code ?? ''}`;
        }
        return 'ok';
      }),
    );
  } finally {
    fake.beforeAnswer = undefined;
  }
}
