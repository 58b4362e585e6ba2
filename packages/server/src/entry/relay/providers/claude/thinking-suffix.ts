/** The smallest thinking budget the API accepts. */
export const minimumThinkingBudget = 1024;

const suffix = '-thinking';

/** new-api's model-name convention: `claude-…-thinking` is the model with extended thinking on. */
export function splitThinkingSuffix(model: string): { model: string; thinking: boolean } {
  return model.endsWith(suffix) ? { model: model.slice(0, -suffix.length), thinking: true } : { model, thinking: false };
}

/** The budget a `-thinking` suffix asks for: 80 % of max_tokens (new-api's rule), at least the minimum. */
export function suffixThinkingBudget(maxTokens: number): number {
  return Math.max(minimumThinkingBudget, Math.floor(maxTokens * 0.8));
}
