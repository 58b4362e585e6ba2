import type { Metrics } from '../../../core/platform/metrics.ts';
import type { ChannelCache } from '../cache/channel-cache.ts';
import type { ChannelBreakers } from './channel-breakers.ts';

const stateValue = { closed: 0, open: 1, 'half-open': 2 } as const;

/**
 * On /metrics: each channel whose breaker is not wholly closed (0 closed with some keys open, 1 open,
 * 2 half-open) with its open keys, and how many times circuits opened on this instance.
 */
export function registerBreakerMetrics(metrics: Metrics, breakers: ChannelBreakers, channels: ChannelCache): void {
  const views = () => breakers.snapshot((id) => channels.get(id)?.keys.length);
  metrics.labelledGauge(
    'switchboard_channel_breaker_state',
    'Channel circuit breaker: 0 closed (some keys open), 1 open, 2 half-open',
    ['channel_id'],
    () => views().map((view) => ({ labels: { channel_id: String(view.channel_id) }, value: stateValue[view.state] })),
    'max',
  );
  metrics.labelledGauge(
    'switchboard_channel_breaker_open_keys',
    'Keys of a channel whose circuit breaker is open or half-open',
    ['channel_id'],
    () => views().map((view) => ({ labels: { channel_id: String(view.channel_id) }, value: view.open_keys + view.half_open_keys })),
    'max',
  );
  metrics.counter('switchboard_channel_breaker_opened_total', 'Times a channel circuit breaker opened on this instance', () => breakers.opened);
}
