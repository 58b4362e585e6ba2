import type { ChangeHandler } from './change-bus.ts';

/**
 * The handlers a process subscribed, by topic. `apply` runs those of a topic and resolves once every
 * one has finished (a cache's reload included): a process confirms a change only then. A handler
 * that fails is its own to log; the others still run, and the change counts as applied.
 */
export class ChangeHandlers {
  private readonly byTopic = new Map<string, ChangeHandler[]>();

  add(topic: string, handler: ChangeHandler): void {
    this.byTopic.set(topic, [...(this.byTopic.get(topic) ?? []), handler]);
  }

  async apply(topic: string, payload: string): Promise<void> {
    const handlers = this.byTopic.get(topic);
    if (!handlers) return;
    await Promise.allSettled(handlers.map(async (handler) => handler(payload)));
  }

  clear(): void {
    this.byTopic.clear();
  }
}
