import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

export const channelHealthMessages = {
  channelNotFound: { zh: '渠道不存在', en: 'Channel does not exist' },
  testAlreadyRunning: { zh: '测试已在运行中', en: 'Test is already running' },
  testStarted: { zh: '已开始在后台测试所有渠道', en: 'Testing all channels in the background' },
  notRelayed: { zh: '该渠道类型目前无法使用，无法测试：{reason}', en: 'This channel type cannot be used, so it cannot be tested: {reason}' },
  taskChannelUntestable: {
    zh: 'Midjourney 与 Suno 任务渠道无法测试：它们只接收绘图和音乐任务，测试请求会产生真实费用',
    en: 'Midjourney and Suno task channels cannot be tested: they only accept drawing and music tasks, and a test task would be billed upstream',
  },
  passedButUnpriced: {
    zh: '上游测试通过，但 {model} 没有设置价格或倍率：调用者会收到 400 错误（未配置价格）。请为它设置价格，或开启自用模式',
    en: 'The upstream answered, but {model} has no price or ratio: callers will get 400 (no price configured). Set a price for it, or turn on self-use mode',
  },
  testFailed: { zh: '测试失败：{reason}', en: 'Test failed: {reason}' },
  tooSlow: { zh: '响应时间 {seconds}s 超过阈值 {threshold}s', en: 'Response time {seconds}s exceeds the threshold of {threshold}s' },
} as const satisfies Record<string, LocalizedMessage>;
