import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/** What a caller reads when the machine's primary process cannot decide for its request. */
export const clusterMessages = {
  primaryGone: {
    zh: '服务正在重启，请稍后重试',
    en: 'The service is restarting; retry in a moment',
  },
} satisfies Record<string, LocalizedMessage>;
