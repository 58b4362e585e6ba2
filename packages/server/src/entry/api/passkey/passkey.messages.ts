import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const passkeyMessages = {
  disabled: { zh: '管理员未启用 Passkey 登录', en: 'Passkeys are turned off by the administrator' },
  registered: { zh: 'Passkey 注册成功', en: 'Passkey added' },
  deleted: { zh: 'Passkey 已解绑', en: 'Passkey removed' },
  renamed: { zh: 'Passkey 已重命名', en: 'Passkey renamed' },
  notFound: { zh: '该 Passkey 不存在', en: 'No such passkey' },
  noneBound: { zh: '该用户尚未绑定 Passkey', en: 'This user has no passkey' },
  alreadyRegistered: { zh: '该 Passkey 已注册', en: 'This passkey is already registered' },
  tooMany: { zh: '最多可注册 {max} 个 Passkey', en: 'At most {max} passkeys can be registered' },
  ceremonyExpired: { zh: 'Passkey 验证已过期，请重试', en: 'The passkey request has expired, try again' },
  verifyFailed: { zh: 'Passkey 验证失败，请重试或联系管理员', en: 'The passkey could not be verified; try again or contact the administrator' },
  verified: { zh: 'Passkey 验证成功', en: 'Passkey verified' },
  notVerifiedYet: { zh: '请先完成 Passkey 验证', en: 'Confirm with your passkey first' },
  insecureOrigin: {
    zh: 'Passkey 不允许使用不安全的 Origin：{origin}，请使用 HTTPS 或在 Passkey 设置中允许不安全 Origin',
    en: 'Passkeys do not allow the insecure origin {origin}: use HTTPS, or allow insecure origins in the passkey settings',
  },
  originUnknown: { zh: '无法确定 Passkey 的来源地址，请设置服务器地址', en: 'The passkey origin is unknown; set the server address' },
  adminReset: { zh: 'Passkey 已重置', en: "The user's passkeys were reset" },
  noPermission: { zh: '无权操作同级或更高级用户的 Passkey', en: 'No permission to change the passkeys of a user of the same or a higher role' },
  enrolmentRequired: {
    zh: '管理员账号须先启用两步验证或 Passkey，才能使用管理功能',
    en: 'Administrators must set up two-factor authentication or a passkey before using the admin functions',
  },
} as const satisfies Record<string, LocalizedMessage>;
