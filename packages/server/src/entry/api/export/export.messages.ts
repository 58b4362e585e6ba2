import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const exportMessages = {
  busy: {
    zh: '已有导出正在进行（最多同时 {limit} 个），请等它完成后再试',
    en: 'An export is already running (at most {limit} at once); try again when it has finished',
  },
} as const satisfies Record<string, LocalizedMessage>;
