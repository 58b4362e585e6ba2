import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/** Messages of budgets: relay refusals (OpenAI-shaped 429) and console answers. */
export const budgetMessages = {
  tokenBudgetExceeded: {
    zh: '该令牌本周期（{period}）的预算已用完，将于 {resetAt} 重置',
    en: "This token's {period} budget is used up; it resets at {resetAt}",
  },
  userBudgetExceeded: {
    zh: '您本周期（{period}）的预算已用完，将于 {resetAt} 重置',
    en: 'Your {period} budget is used up; it resets at {resetAt}',
  },
  tokenNotFound: { zh: '令牌不存在', en: 'Token not found' },
  userNotFound: { zh: '用户不存在', en: 'User not found' },
  budgetSaved: { zh: '预算已保存', en: 'Budget saved' },
  alertsSaved: { zh: '提醒设置已保存', en: 'Alert settings saved' },
  noPermission: { zh: '无权修改该用户', en: 'No permission to change this user' },
} as const satisfies Record<string, LocalizedMessage>;
