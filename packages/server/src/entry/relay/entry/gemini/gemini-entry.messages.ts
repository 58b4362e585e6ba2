import type { LocalizedMessage } from '../../../../core/messages/catalogue.ts';

/** Refusals of `/v1beta/models/…` that the relay's own messages do not cover. */
export const geminiEntryMessages = {
  invalidBody: { zh: '请求体不是合法的 generateContent 请求：{detail}', en: 'The body is not a valid generateContent request: {detail}' },
  unsupportedMethod: { zh: '不支持的方法：{method}', en: 'Unsupported method: {method}' },
} as const satisfies Record<string, LocalizedMessage>;
