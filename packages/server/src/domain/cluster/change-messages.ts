/**
 * The change bus's messages between a machine's workers and its primary (see cluster-change-bus.ts
 * and primary-change-relay.ts).
 */

/**
 * A change of shared data. A worker sends it to the primary, which repeats it to every worker (the
 * sender too). `id` asks for confirmations: from the sender, the id the primary's reply will carry
 * once every worker has applied it; from the primary, the id each worker confirms with `change-applied`.
 * Without one it is an announcement that nobody waits for.
 */
export interface ChangeMessage {
  readonly sb: 'change';
  readonly id?: number;
  readonly topic: string;
  readonly payload: string;
}

/** A worker applied the primary's change `id` (its handlers' reloads finished). */
export interface ChangeAppliedMessage {
  readonly sb: 'change-applied';
  readonly id: number;
}

/** A worker applies changes from now on: the primary waits for its confirmations until it exits. */
export interface ChangeSubscriberMessage {
  readonly sb: 'change-subscriber';
}

export type WorkerChangeMessage = ChangeMessage | ChangeAppliedMessage | ChangeSubscriberMessage;
