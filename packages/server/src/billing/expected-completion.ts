/**
 * What a model's answers have cost lately, in completion tokens: near the edge of a balance a request
 * claims its expected cost instead of its worst case, so the balance pays for as many requests as it
 * can. A moving average per model (recent answers weigh most), in this process; bounded, since
 * callers choose the model names.
 */
const weightOfNewest = 0.2;
const modelsRemembered = 2_000;

export class ExpectedCompletion {
  private readonly averages = new Map<string, number>();

  /** The expected completion tokens of the model's next answer, or undefined before its first. */
  of(model: string): number | undefined {
    return this.averages.get(model);
  }

  observe(model: string, completionTokens: number): void {
    if (!(completionTokens >= 0)) return;
    const average = this.averages.get(model);
    if (average === undefined && this.averages.size >= modelsRemembered) this.averages.clear();
    this.averages.set(model, average === undefined ? completionTokens : average + weightOfNewest * (completionTokens - average));
  }
}
