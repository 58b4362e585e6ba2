import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const logMessages = {
  targetTimestampRequired: { zh: '请选择日志记录时间', en: 'Please choose the time before which logs are cleared' },
} as const satisfies Record<string, LocalizedMessage>;
