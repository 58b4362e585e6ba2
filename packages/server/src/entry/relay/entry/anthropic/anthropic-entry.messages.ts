import type { LocalizedMessage } from '../../../../core/messages/catalogue.ts';

/** Refusals of `/v1/messages` that the relay's own messages do not cover. */
export const anthropicEntryMessages = {
  invalidBody: { zh: '请求体不是合法的 Messages 请求：{detail}', en: 'The body is not a valid Messages request: {detail}' },
} as const satisfies Record<string, LocalizedMessage>;
