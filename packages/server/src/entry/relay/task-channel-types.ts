/**
 * Channel types served by the task relays (/mj and /suno) instead of an OpenAI-format provider: a
 * caller submits a task, pays per action, and the poller follows it to its end.
 */
export const taskChannelType = {
  midjourney: 2,
  midjourneyPlus: 5,
  suno: 36,
} as const;

const taskTypes: ReadonlySet<number> = new Set(Object.values(taskChannelType));

export function isTaskChannelType(type: number): boolean {
  return taskTypes.has(type);
}

export function isMidjourneyChannelType(type: number): boolean {
  return type === taskChannelType.midjourney || type === taskChannelType.midjourneyPlus;
}
