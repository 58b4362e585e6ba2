import type { KeyedLogNote } from '../../../domain/logs/log-content.ts';
import type { TaskPrice } from '../task-billing.ts';

/**
 * The consume row's note of an accepted drawing task, in new-api's words ("模型固定价格 0.10，分组倍率
 * 1.00，操作 IMAGINE，ID …", prices with two decimals, '-' for a ratio-priced model) and as a message
 * key whose params carry the same figures, so the console's line reads as new-api's does.
 */
export function midjourneySubmitNote(price: TaskPrice, action: string, mjId: string): KeyedLogNote {
  const modelPrice = price.pricing.usePrice ? price.pricing.modelPrice.toFixed(2) : '-';
  const groupRatio = price.pricing.groupRatio.toFixed(2);
  const text = `模型固定价格 ${modelPrice}，分组倍率 ${groupRatio}，操作 ${action}`;
  const params = { price: modelPrice, group_ratio: groupRatio, action };
  return mjId
    ? { text: `${text}，ID ${mjId}`, key: 'log.drawing_submitted', params: { ...params, mj_id: mjId } }
    : { text, key: 'log.drawing_submitted_without_id', params };
}
