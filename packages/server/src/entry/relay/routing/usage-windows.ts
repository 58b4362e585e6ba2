import type { ChannelRecord } from '../cache/channel-cache.ts';

const minuteMs = 60_000;

/** Requests and tokens of one minute window and the one before it. */
class MinuteCounter {
  private windowStart = 0;
  private current = 0;
  private previous = 0;

  add(amount: number, now: number): void {
    this.roll(now);
    this.current += amount;
  }

  /** The last minute's total, approximated as the current window plus the previous one's overlapping share. */
  total(now: number): number {
    this.roll(now);
    const overlap = 1 - (now - this.windowStart) / minuteMs;
    return this.current + this.previous * Math.max(0, overlap);
  }

  private roll(now: number): void {
    const start = now - (now % minuteMs);
    if (start === this.windowStart) return;
    this.previous = start - this.windowStart === minuteMs ? this.current : 0;
    this.current = 0;
    this.windowStart = start;
  }
}

/**
 * Requests and tokens per channel and per channel key over the last minute (sliding, approximated
 * by two fixed windows as the request limits do), for the usage-aware strategy. Counted by this
 * process for what it sends; a request counts when it is sent, its tokens when its answer is settled.
 */
export class UsageWindows {
  private readonly requests = new Map<string, MinuteCounter>();
  private readonly tokens = new Map<string, MinuteCounter>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  sent(channelId: number, keyIndex: number): void {
    const now = this.now();
    counter(this.requests, String(channelId)).add(1, now);
    counter(this.requests, `${channelId}:${keyIndex}`).add(1, now);
  }

  used(channelId: number, keyIndex: number, tokens: number): void {
    if (!(tokens > 0)) return;
    const now = this.now();
    counter(this.tokens, String(channelId)).add(tokens, now);
    counter(this.tokens, `${channelId}:${keyIndex}`).add(tokens, now);
  }

  /** Whether the channel as a whole is under its RPM and TPM (true when it sets none). */
  channelUnder(channel: ChannelRecord): boolean {
    const limits = channel.usageLimits;
    if (!limits) return true;
    const now = this.now();
    const id = String(channel.id);
    return under(this.requests.get(id), limits.rpm, now) && under(this.tokens.get(id), limits.tpm, now);
  }

  /** Whether one key of the channel is under its per-key RPM and TPM. */
  keyUnder(channel: ChannelRecord, keyIndex: number): boolean {
    const limits = channel.usageLimits;
    if (!limits || (!limits.keyRpm && !limits.keyTpm)) return true;
    const now = this.now();
    const id = `${channel.id}:${keyIndex}`;
    return under(this.requests.get(id), limits.keyRpm, now) && under(this.tokens.get(id), limits.keyTpm, now);
  }

  /** Whether the channel and at least one of its keys have room for another request. */
  hasRoom(channel: ChannelRecord): boolean {
    if (!channel.usageLimits) return true;
    if (!this.channelUnder(channel)) return false;
    const keys = Math.max(1, channel.keys.length);
    for (let index = 0; index < keys; index += 1) if (this.keyUnder(channel, index)) return true;
    return false;
  }
}

function counter(map: Map<string, MinuteCounter>, key: string): MinuteCounter {
  let found = map.get(key);
  if (!found) {
    found = new MinuteCounter();
    map.set(key, found);
  }
  return found;
}

const under = (counted: MinuteCounter | undefined, limit: number, now: number): boolean => !limit || !counted || counted.total(now) < limit;
