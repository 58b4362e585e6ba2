import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { BreakerSettings } from './circuit.ts';

/**
 * A probe is one relayed request: it may stream for minutes, but a probe whose caller vanished must
 * not hold the half-open slot forever. After this long another request may probe.
 */
const probeTimeoutMs = 60_000;

/** The breaker's thresholds from the settings (ChannelBreaker*), read once per option change rather than per request. */
export function readBreakerSettings(options: OptionStore): BreakerSettings {
  return {
    enabled: options.getBoolean('ChannelBreakerEnabled'),
    consecutiveFailures: Math.max(0, options.getNumber('ChannelBreakerConsecutiveFailures')),
    errorRatePercent: Math.min(100, Math.max(0, options.getNumber('ChannelBreakerErrorRatePercent'))),
    minimumRequests: Math.max(1, options.getNumber('ChannelBreakerMinimumRequests')),
    windowMs: Math.max(1, options.getNumber('ChannelBreakerWindowSeconds')) * 1000,
    cooldownMs: Math.max(1, options.getNumber('ChannelBreakerCooldownSeconds')) * 1000,
    probeTimeoutMs,
  };
}
