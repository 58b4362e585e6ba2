import type { ChannelBreakerView } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { readBreakerSettings } from './breaker-settings.ts';
import {
  admit,
  applyTransition,
  type BreakerSettings,
  type Circuit,
  isUsable,
  newCircuit,
  recordFailure,
  recordSuccess,
  releaseProbe,
  stateAt,
  type Transition,
} from './circuit.ts';

/** How an attempt ended, as the breaker counts it (see attempt-outcome.ts). */
export type BreakerOutcome = 'success' | 'failure' | 'neutral';

/** The channel as the breaker needs it: its id and how many keys it has. */
export interface BreakerChannel {
  readonly id: number;
  readonly keys: readonly unknown[];
}

/**
 * Sharing with the other instances (Redis); absent on a single instance. Both calls are made only on
 * state changes and half-open probes, never for an ordinary request.
 */
export interface BreakerSync {
  /** Tells every instance (and ones starting later) about a state change; fire and forget. */
  publish(circuitId: string, transition: Transition): void;
  /** Takes the one cluster-wide probe of a half-open circuit; true when Redis is unreachable (local judgement). */
  claimProbe(circuitId: string, ttlMs: number): Promise<boolean>;
}

export const circuitId = (channelId: number, keyIndex: number): string => `${channelId}:${keyIndex}`;

/**
 * Every channel's circuit breakers (one per key) in memory: the relay asks them which channels and
 * keys to use and tells them how each attempt went, without I/O. While no circuit is open the
 * selector's question costs one Set lookup. State changes are shared through `sync` when present.
 */
export class ChannelBreakers {
  private readonly clock: Clock;
  private readonly circuits = new Map<string, Circuit>();
  /** Open circuits per channel id (open or half-open): channels absent here are all closed. */
  private readonly openPerChannel = new Map<number, Set<number>>();
  private settings: BreakerSettings;
  private sync: BreakerSync | undefined;
  /** Times any circuit opened on this instance (the metrics' counter). */
  opened = 0;

  constructor(dependencies: { options: OptionStore; clock: Clock }) {
    this.clock = dependencies.clock;
    this.settings = readBreakerSettings(dependencies.options);
    dependencies.options.onChange((key) => {
      if (key.startsWith('ChannelBreaker')) this.settings = readBreakerSettings(dependencies.options);
    });
  }

  /** Connects the cross-instance sharing once it is set up (it needs this object to apply remote changes). */
  share(sync: BreakerSync): void {
    this.sync = sync;
  }

  /** The selector's filter, or undefined while every circuit is closed (the common case costs nothing). */
  usableFilter(): ((channel: BreakerChannel) => boolean) | undefined {
    return this.openPerChannel.size > 0 && this.settings.enabled ? this.isUsable : undefined;
  }

  private readonly isUsable = (channel: BreakerChannel): boolean => this.usable(channel);

  /** Whether the selector should consider the channel: some key's circuit is closed, or half-open with its probe free. */
  usable(channel: BreakerChannel): boolean {
    const open = this.openPerChannel.get(channel.id);
    if (!open || !this.settings.enabled) return true;
    const now = this.clock.now();
    const keys = Math.max(1, channel.keys.length);
    for (let index = 0; index < keys; index += 1) {
      const circuit = open.has(index) ? this.circuits.get(circuitId(channel.id, index)) : undefined;
      if (!circuit || isUsable(circuit, now)) return true;
    }
    return false;
  }

  /**
   * The key an attempt uses: at random among the keys whose circuit lets it through, else among all
   * (the channel is the last resort). One random draw either way, as before breakers existed.
   */
  pickKey(channel: BreakerChannel, random: () => number): number {
    const keys = Math.max(1, channel.keys.length);
    const open = this.openPerChannel.get(channel.id);
    if (!open || !this.settings.enabled) return Math.floor(random() * keys);
    const usable: number[] = [];
    for (let index = 0; index < keys; index += 1) if (this.keyUsable(channel, index)) usable.push(index);
    if (usable.length === 0) return Math.floor(random() * keys);
    return usable[Math.floor(random() * usable.length)] ?? 0;
  }

  /** Whether one key's circuit lets attempts through (closed, or half-open with its probe free). */
  keyUsable(channel: BreakerChannel, keyIndex: number): boolean {
    if (!this.settings.enabled || !this.openPerChannel.get(channel.id)?.has(keyIndex)) return true;
    const circuit = this.circuits.get(circuitId(channel.id, keyIndex));
    return !circuit || isUsable(circuit, this.clock.now());
  }

  /**
   * Lets an attempt through. A closed circuit, or an open one picked as the last resort, always; a
   * half-open one makes this attempt its probe, cluster-wide with Redis (the only awaited case).
   * False: another instance is probing, pick again.
   */
  admit(channel: BreakerChannel, keyIndex: number): boolean | Promise<boolean> {
    if (!this.settings.enabled || !this.openPerChannel.get(channel.id)?.has(keyIndex)) return true;
    const id = circuitId(channel.id, keyIndex);
    const circuit = this.circuits.get(id);
    const now = this.clock.now();
    if (!circuit || !admit(circuit, now, this.settings)) return true;
    if (!this.sync) return true;
    return this.sync.claimProbe(id, this.settings.probeTimeoutMs).then((claimed) => {
      // Another instance holds the probe: this one treats the circuit as probed until it hears back.
      if (!claimed) circuit.probeUntil = now + this.settings.probeTimeoutMs;
      return claimed;
    });
  }

  /** Counts an attempt's outcome on its key's circuit. */
  record(channel: BreakerChannel, keyIndex: number, outcome: BreakerOutcome): void {
    if (!this.settings.enabled) return;
    const id = circuitId(channel.id, keyIndex);
    let circuit = this.circuits.get(id);
    const now = this.clock.now();
    if (!circuit) {
      if (outcome === 'neutral') return;
      circuit = newCircuit(now);
      this.circuits.set(id, circuit);
    }
    if (outcome === 'neutral') {
      if (circuit.open) releaseProbe(circuit);
      return;
    }
    const transition = outcome === 'success' ? recordSuccess(circuit, now, this.settings) : recordFailure(circuit, now, this.settings);
    if (!transition) return;
    this.track(channel.id, keyIndex, transition);
    if (transition.state === 'open') this.opened += 1;
    this.sync?.publish(id, transition);
  }

  /** A state change made by another instance (or replayed from Redis at start-up). */
  applyRemote(id: string, transition: Transition): void {
    const [channelText, keyText] = id.split(':');
    const channelId = Number(channelText);
    const keyIndex = Number(keyText);
    if (!Number.isInteger(channelId) || !Number.isInteger(keyIndex)) return;
    let circuit = this.circuits.get(id);
    if (!circuit) {
      if (transition.state === 'closed') return;
      circuit = newCircuit(this.clock.now());
      this.circuits.set(id, circuit);
    }
    applyTransition(circuit, transition, this.clock.now());
    this.track(channelId, keyIndex, transition);
  }

  /** The keys of a channel whose circuit is open or half-open. */
  openKeys(channelId: number): number[] {
    return [...(this.openPerChannel.get(channelId) ?? [])].sort((a, b) => a - b);
  }

  /** Channels with a key whose circuit is not closed, for the console, the metrics and the channel test job. */
  snapshot(keyCount: (channelId: number) => number | undefined): ChannelBreakerView[] {
    const now = this.clock.now();
    const views: ChannelBreakerView[] = [];
    for (const [channelId, open] of this.openPerChannel) {
      const keys = keyCount(channelId);
      if (keys === undefined) continue;
      let openKeys = 0;
      let halfOpenKeys = 0;
      let soonest = 0;
      for (const keyIndex of open) {
        const circuit = this.circuits.get(circuitId(channelId, keyIndex));
        if (!circuit || keyIndex >= Math.max(1, keys)) continue;
        const state = stateAt(circuit, now);
        if (state === 'open') openKeys += 1;
        if (state === 'half-open') halfOpenKeys += 1;
        if (state === 'open' && (soonest === 0 || circuit.openUntil < soonest)) soonest = circuit.openUntil;
      }
      if (openKeys + halfOpenKeys === 0) continue;
      const closedKeys = Math.max(1, keys) - openKeys - halfOpenKeys;
      const state = closedKeys > 0 ? 'closed' : halfOpenKeys > 0 ? 'half-open' : 'open';
      views.push({
        channel_id: channelId,
        state,
        key_count: Math.max(1, keys),
        open_keys: openKeys,
        half_open_keys: halfOpenKeys,
        open_until: soonest ? Math.ceil(soonest / 1000) : 0,
      });
    }
    return views.sort((a, b) => a.channel_id - b.channel_id);
  }

  private track(channelId: number, keyIndex: number, transition: Transition): void {
    let open = this.openPerChannel.get(channelId);
    if (transition.state === 'open') {
      if (!open) this.openPerChannel.set(channelId, (open = new Set()));
      open.add(keyIndex);
      return;
    }
    open?.delete(keyIndex);
    if (open?.size === 0) this.openPerChannel.delete(channelId);
  }
}
