import { secondFactorLimits } from './second-factor-lock.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Tells a user their second step was locked: someone who knows the password is guessing codes. */
export function secondFactorLockedMail(systemName: string, username: string, ip: string) {
  const name = escapeHtml(systemName);
  const user = escapeHtml(username);
  const address = escapeHtml(ip);
  const { failures, lockSeconds } = secondFactorLimits;
  const minutes = lockSeconds / 60;
  return {
    subject: `${systemName} 两步验证已锁定 / Two-factor step locked`,
    html:
      `<p>您好，${user}：</p><p>有人在 ${name} 输入了你的密码，但连续 ${failures} 次输错两步验证码（最近一次来自 ${address}），两步验证已锁定 ${minutes} 分钟。</p>` +
      `<p>如果这不是你本人，你的密码可能已经泄露，请立即修改密码。</p><hr>` +
      `<p>Hello ${user},</p><p>Someone entered your ${name} password but then ${failures} wrong two-factor codes (the last from ${address}); the second step is locked for ${minutes} minutes.</p>` +
      `<p>If this was not you, your password may be known to someone else: change it now.</p>`,
  };
}
