/** A circuit breaker's state: closed (used), open (skipped for a cool-down), half-open (one probe goes through). */
export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * A channel whose breaker is not wholly closed, as `GET /api/channel/breaker` answers it. Each key of
 * a multi-key channel has its own breaker; the channel is skipped only when none of its keys is usable.
 */
export interface ChannelBreakerView {
  channel_id: number;
  /** The channel as a whole: closed while some key is closed, half-open while some key may be probed. */
  state: BreakerState;
  key_count: number;
  /** Keys skipped for their cool-down. */
  open_keys: number;
  /** Keys whose cool-down is over, waiting for their probe. */
  half_open_keys: number;
  /** Unix seconds when the first open key turns half-open; 0 when none is open. */
  open_until: number;
}
