import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const twoFactorMessages = {
  alreadyEnabled: { zh: '用户已启用2FA，请先禁用后重新设置', en: 'Two-factor authentication is already on; turn it off before setting it up again' },
  setupFirst: { zh: '请先完成2FA初始化设置', en: 'Start the two-factor setup first' },
  notEnabled: { zh: '用户未启用2FA', en: 'Two-factor authentication is not on for this user' },
  setupStarted: {
    zh: '2FA设置初始化成功，请使用认证器扫描二维码并输入验证码完成设置',
    en: 'Scan the QR code with an authenticator app and enter its code to finish the setup',
  },
  enabled: { zh: '两步验证启用成功', en: 'Two-factor authentication is on' },
  disabled: { zh: '两步验证已禁用', en: 'Two-factor authentication is off' },
  codesRegenerated: { zh: '备用码重新生成成功', en: 'New backup codes generated' },
  codeRequired: { zh: '请输入验证码', en: 'Enter the code' },
  wrongCode: { zh: '验证码或备用码错误，请重试', en: 'The code or backup code is wrong, try again' },
  secondStepLocked: {
    zh: '两步验证码错误次数过多，已锁定 {minutes} 分钟，请稍后再试',
    en: 'Too many wrong two-factor codes: the second step is locked for {minutes} minutes, try again later',
  },
  codeUsed: { zh: '该验证码已使用，请等待下一个验证码', en: 'This code was already used; wait for the next one' },
  loginRequires2fa: { zh: '请输入两步验证码', en: 'Enter your two-factor code' },
  loginExpired: { zh: '会话已过期，请重新登录', en: 'The login has expired, log in again' },
  verified: { zh: '验证成功', en: 'Verified' },
  verificationRequired: { zh: '此操作需要先完成两步验证', en: 'Confirm with your two-factor code before doing this' },
  passkeyFirst: { zh: '请先完成 Passkey 验证', en: 'Confirm with your passkey first' },
  methodUnsupported: { zh: '不支持的验证方式', en: 'Unsupported verification method' },
  adminReset: { zh: '用户2FA已被强制禁用', en: "The user's two-factor authentication was reset" },
  noPermission: { zh: '无权操作同级或更高级用户的2FA设置', en: 'No permission to change the two-factor setting of a user of the same or a higher role' },
} as const satisfies Record<string, LocalizedMessage>;
