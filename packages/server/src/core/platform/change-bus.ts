import { ChangeHandlers } from './change-handlers.ts';

/** Applies one change in this process: reloads what it holds for the payload; resolves once done. */
export type ChangeHandler = (payload: string) => void | Promise<void>;

/**
 * How long a publisher waits for a process (a worker of the machine, an instance sharing Redis) to
 * confirm that it applied a change. One that does not is named in a warning, and the publisher goes
 * on: a dead or stuck process never holds a console write for longer.
 */
export const changeConfirmTimeoutMs = 1_000;

/**
 * Tells every process that shared data changed (options, users, tokens, channels, budgets), so no
 * in-memory copy serves the old state after a console write has answered. With Redis it reaches
 * every instance (redis-change-bus.ts); without it, a worker reaches its machine's others through the
 * primary (cluster/cluster-change-bus.ts); a single process calls its own handlers.
 */
export interface ChangeBus {
  /**
   * Resolves once every live process has applied the change (its handlers' reloads finished), or
   * once the confirmation time is up for one that stays silent. A write that changes what the relay
   * decides awaits it before answering, so the next call on any process follows the new state.
   */
  publish(topic: string, payload: string): Promise<void>;
  /**
   * Tells every process without waiting for them to apply it (resolves once sent): news that no
   * answer depends on, such as quota deltas and breaker states.
   */
  announce(topic: string, payload: string): Promise<void>;
  subscribe(topic: string, handler: ChangeHandler): void;
  /** Resolves once every subscription made so far is live (buildApp awaits it before serving). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The bus of a process alone: a change is applied here before `publish` resolves. */
export function createLocalChangeBus(): ChangeBus {
  const handlers = new ChangeHandlers();
  return {
    publish: (topic, payload) => handlers.apply(topic, payload),
    async announce(topic, payload) {
      void handlers.apply(topic, payload);
    },
    subscribe(topic, handler) {
      handlers.add(topic, handler);
    },
    async ready() {},
    async close() {
      handlers.clear();
    },
  };
}
