import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const walletMessages = {
  codeMissing: { zh: '请输入兑换码', en: 'Please enter a redemption code' },
  codeInvalid: { zh: '无效的兑换码', en: 'Invalid redemption code' },
  codeUsed: { zh: '该兑换码已被使用', en: 'This redemption code has been used' },
  codeDisabled: { zh: '该兑换码已被禁用', en: 'This redemption code is disabled' },
  codeExpired: { zh: '该兑换码已过期', en: 'This redemption code has expired' },
  belowMinimum: { zh: '充值数量不能小于 {min}', en: 'Top-up amount cannot be less than {min}' },
  aboveMaximum: { zh: '充值数量不能大于 {max}', en: 'Top-up amount cannot be more than {max}' },
  amountTooLow: { zh: '充值金额过低', en: 'The amount to pay is too low' },
  unknownPaymentMethod: { zh: '支付方式不存在', en: 'This payment method is not available' },
  unsignableField: {
    zh: '支付参数 {field} 含有 &、= 或控制字符，无法进行易支付签名，请管理员修改支付设置',
    en: 'Payment field {field} contains &, = or a control character and cannot be signed for Epay; the administrator must correct the payment settings',
  },
  paymentNotConfigured: { zh: '当前管理员未配置支付信息', en: 'The administrator has not configured online payment' },
} as const satisfies Record<string, LocalizedMessage>;
