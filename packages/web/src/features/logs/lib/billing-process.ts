import type { LogView } from '@switchboard/contracts';
import type { LogOther } from './log-other.ts';

export interface BillingStep {
  key: string;
  values: Record<string, string | number>;
}

const usd = (value: number) => `$${Number(value.toFixed(6))}`;

/**
 * How a consume row's cost was reached, as new-api's pricing formulas say:
 * per call = price × group ratio; per token = group × model ratio × (prompt + completion × completion
 * ratio) / 500,000 dollars, shown per million tokens (prompt price = model ratio × 2 × group ratio).
 */
export function billingSteps(entry: LogView, other: LogOther, quotaPerUnit: number): BillingStep[] {
  const group = other.group_ratio ?? 1;
  if (other.model_price !== undefined && other.model_price > 0) {
    return [{ key: 'perCall', values: { price: usd(other.model_price), group, total: usd(other.model_price * group) } }];
  }
  if (other.model_ratio === undefined) return [];
  const modelRatio = other.model_ratio;
  const completionRatio = other.completion_ratio ?? 1;
  // 1 ratio = $0.002 / 1K tokens = $2 / 1M tokens when 500,000 units are a dollar.
  const perMillion = (1_000_000 / quotaPerUnit) * modelRatio;
  const steps: BillingStep[] = [
    { key: 'promptPrice', values: { price: usd(perMillion), group, total: usd(perMillion * group) } },
    { key: 'completionPrice', values: { price: usd(perMillion * completionRatio), group, total: usd(perMillion * completionRatio * group) } },
  ];
  if (other.audio && other.audio_ratio !== undefined) {
    const audioRatio = other.audio_ratio;
    const audioCompletion = other.audio_completion_ratio ?? 1;
    const units =
      (other.text_input ?? 0) +
      (other.text_output ?? 0) * completionRatio +
      (other.audio_input ?? 0) * audioRatio +
      (other.audio_output ?? 0) * audioRatio * audioCompletion;
    steps.push({
      key: 'audioTotal',
      values: {
        textInput: other.text_input ?? 0,
        textOutput: other.text_output ?? 0,
        audioInput: other.audio_input ?? 0,
        audioOutput: other.audio_output ?? 0,
        audioRatio,
        audioCompletion,
        completionRatio,
        modelRatio,
        group,
        total: usd((units * modelRatio * group) / quotaPerUnit),
      },
    });
    return steps;
  }
  steps.push({
    key: 'tokenTotal',
    values: {
      prompt: entry.prompt_tokens,
      completion: entry.completion_tokens,
      completionRatio,
      modelRatio,
      group,
      unit: quotaPerUnit,
      total: usd(((entry.prompt_tokens + entry.completion_tokens * completionRatio) * modelRatio * group) / quotaPerUnit),
    },
  });
  return steps;
}
