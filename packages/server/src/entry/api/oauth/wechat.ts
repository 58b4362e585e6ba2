import { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { OutgoingRequests } from '../../../core/platform/outgoing/outgoing-requests.ts';
import { callOutsideJson } from '../../../core/platform/outside-json.ts';
import { oauthMessages } from './oauth.messages.ts';

const serverAnswer = z.object({ success: z.boolean(), message: z.string().default(''), data: z.string().default('') });

/**
 * The WeChat login of new-api goes through a separate "WeChat server" (the official account
 * back end): the user sends the account a message, gets a short code, and the WeChat server
 * answers the openid for that code (valid three minutes). Its address is a setting, so the call
 * goes through the outgoing-request policy.
 */
export async function fetchWeChatOpenId(code: string, options: OptionStore, outgoing: OutgoingRequests): Promise<string> {
  if (!code.trim()) throw new AppError(oauthMessages.codeRequired);
  const url = `${options.get('WeChatServerAddress')}/api/wechat/user?code=${encodeURIComponent(code.trim())}`;
  const answer = await callOutsideJson(url, { headers: { authorization: options.get('WeChatServerToken') }, via: outgoing }).catch(() => undefined);
  const parsed = serverAnswer.safeParse(answer?.body);
  if (!parsed.success) throw new AppError(oauthMessages.providerFailed, { params: { provider: 'WeChat' } });
  if (!parsed.data.success) throw new AppError(oauthMessages.weChatServerError, { params: { detail: parsed.data.message.slice(0, 200) } });
  if (!parsed.data.data) throw new AppError(oauthMessages.weChatCodeInvalid);
  return parsed.data.data;
}
