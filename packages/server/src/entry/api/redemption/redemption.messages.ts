import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const redemptionMessages = {
  notFound: { zh: '兑换码不存在', en: 'Redemption code not found' },
  nameLength: { zh: '兑换码名称长度必须在 1-20 之间', en: 'The name must be 1 to 20 characters long' },
  countInvalid: { zh: '兑换码个数必须大于 0，且一次最多 100 个', en: 'The count must be greater than 0 and at most 100 per batch' },
  quotaInvalid: { zh: '额度必须是正整数', en: 'The quota must be a positive integer' },
  statusInvalid: { zh: '无效的兑换码状态', en: 'Invalid redemption code status' },
  usedCannotChange: { zh: '兑换码已被使用，无法修改', en: 'This redemption code has been used and cannot be changed' },
} as const satisfies Record<string, LocalizedMessage>;
