/**
 * What a model's answers have used lately: near the edge of a balance a request claims its expected
 * cost instead of its worst case, so the balance pays for as many requests as it can. Kept per model
 * as moving averages (recent answers weigh most) of the completion tokens and of the prompt tokens the
 * upstream counted beyond our local estimate (role markers, tool schemas, images), in this process;
 * bounded, since callers choose the model names.
 */
const weightOfNewest = 0.2;
const modelsRemembered = 2_000;

export interface UsualUsage {
  /** Prompt tokens the upstream counts beyond the local estimate (may be negative). */
  readonly promptBeyondEstimate: number;
  readonly completionTokens: number;
}

export class ExpectedUsage {
  private readonly averages = new Map<string, { promptBeyondEstimate: number; completionTokens: number }>();

  /** The usual usage of the model's answers, or undefined before its first. */
  of(model: string): UsualUsage | undefined {
    return this.averages.get(model);
  }

  observe(model: string, promptBeyondEstimate: number, completionTokens: number): void {
    if (!Number.isFinite(promptBeyondEstimate) || !(completionTokens >= 0)) return;
    const average = this.averages.get(model);
    if (average) {
      average.promptBeyondEstimate += weightOfNewest * (promptBeyondEstimate - average.promptBeyondEstimate);
      average.completionTokens += weightOfNewest * (completionTokens - average.completionTokens);
      return;
    }
    if (this.averages.size >= modelsRemembered) this.averages.clear();
    this.averages.set(model, { promptBeyondEstimate, completionTokens });
  }
}
