import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const tokenMessages = {
  notFound: { zh: '令牌不存在', en: 'Token not found' },
  nameRequired: { zh: '请输入令牌名称', en: 'Please enter a token name' },
  nameTooLong: { zh: '令牌名称过长', en: 'The token name is too long' },
  expiryInvalid: { zh: '过期时间格式错误！', en: 'Expiry time format error' },
  quotaNegative: { zh: '额度不能为负数', en: 'Quota cannot be negative' },
  countInvalid: { zh: '创建数量必须是 1 到 100 之间的整数', en: 'The count must be an integer from 1 to 100' },
  groupNotAllowed: { zh: '无权使用分组 {group}', en: 'No access to group {group}' },
  statusInvalid: { zh: '无效的令牌状态', en: 'Invalid token status' },
  expiredCannotEnable: {
    zh: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    en: 'This token has expired and cannot be enabled: change its expiry time or make it never expire first',
  },
  exhaustedCannotEnable: {
    zh: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    en: "This token's quota is depleted and it cannot be enabled: change its remaining quota or make it unlimited first",
  },
} as const satisfies Record<string, LocalizedMessage>;
