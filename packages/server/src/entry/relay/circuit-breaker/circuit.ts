/**
 * One circuit breaker (a channel, or one key of a multi-key channel) as a pure state machine: every
 * function takes the time, so tests move it by hand and nothing here reads a clock or does I/O.
 *
 * closed ─(N consecutive failures, or error rate ≥ R% over at least M requests in the window)→ open
 * open ─(cool-down over)→ half-open: one request (or a channel test) is let through as the probe
 * half-open ─(probe succeeds)→ closed; ─(probe fails)→ open for another cool-down
 *
 * "Half-open" is not stored: it is an open circuit whose cool-down has passed. A probe that never
 * reports (its caller crashed) gives its slot back after `probeTimeoutMs`.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export interface BreakerSettings {
  readonly enabled: boolean;
  /** Consecutive failures that open the circuit; 0 turns the rule off. */
  readonly consecutiveFailures: number;
  /** Error rate in percent over the window that opens it; 0 turns the rule off. */
  readonly errorRatePercent: number;
  /** Requests the window must have seen before the error rate is judged. */
  readonly minimumRequests: number;
  readonly windowMs: number;
  readonly cooldownMs: number;
  /** How long a probe holds the half-open slot before another request may try. */
  readonly probeTimeoutMs: number;
}

export interface Circuit {
  open: boolean;
  consecutiveFailures: number;
  /** Start of the current fixed window; the previous one is weighted in (a sliding-window estimate). */
  windowStartedAt: number;
  requests: number;
  failures: number;
  previousRequests: number;
  previousFailures: number;
  /** When an open circuit turns half-open. */
  openUntil: number;
  /** While a probe is out, nothing else passes a half-open circuit. */
  probeUntil: number;
}

/** What a state change looks like to the other instances and to the console. */
export type Transition = { readonly state: 'open'; readonly openUntil: number } | { readonly state: 'closed' };

export function newCircuit(now: number): Circuit {
  return {
    open: false,
    consecutiveFailures: 0,
    windowStartedAt: now,
    requests: 0,
    failures: 0,
    previousRequests: 0,
    previousFailures: 0,
    openUntil: 0,
    probeUntil: 0,
  };
}

export function stateAt(circuit: Circuit, now: number): CircuitState {
  if (!circuit.open) return 'closed';
  return now < circuit.openUntil ? 'open' : 'half-open';
}

/** Whether a request may be sent now, without taking the probe slot (the selector's filter). */
export function isUsable(circuit: Circuit, now: number): boolean {
  const state = stateAt(circuit, now);
  return state === 'closed' || (state === 'half-open' && circuit.probeUntil <= now);
}

/** Lets a request through: always when closed; in half-open it becomes the one probe. */
export function admit(circuit: Circuit, now: number, settings: BreakerSettings): boolean {
  if (!isUsable(circuit, now)) return false;
  if (circuit.open) circuit.probeUntil = now + settings.probeTimeoutMs;
  return true;
}

/** Gives a probe slot back when the request that took it ended neither well nor badly (a caller error). */
export function releaseProbe(circuit: Circuit): void {
  circuit.probeUntil = 0;
}

function roll(circuit: Circuit, now: number, windowMs: number): void {
  const elapsed = now - circuit.windowStartedAt;
  if (elapsed < windowMs) return;
  const recent = elapsed < 2 * windowMs;
  circuit.previousRequests = recent ? circuit.requests : 0;
  circuit.previousFailures = recent ? circuit.failures : 0;
  circuit.requests = 0;
  circuit.failures = 0;
  circuit.windowStartedAt = recent ? circuit.windowStartedAt + windowMs : now;
}

/** Requests and failures over the last window: the current one plus the part of the previous one still inside it. */
function windowCounts(circuit: Circuit, now: number, windowMs: number): { requests: number; failures: number } {
  const overlap = Math.max(0, 1 - (now - circuit.windowStartedAt) / windowMs);
  return { requests: circuit.requests + circuit.previousRequests * overlap, failures: circuit.failures + circuit.previousFailures * overlap };
}

function close(circuit: Circuit, now: number): Transition {
  Object.assign(circuit, newCircuit(now));
  return { state: 'closed' };
}

function trip(circuit: Circuit, now: number, settings: BreakerSettings): Transition {
  circuit.open = true;
  circuit.openUntil = now + settings.cooldownMs;
  circuit.probeUntil = 0;
  return { state: 'open', openUntil: circuit.openUntil };
}

/** An answer from the upstream: closes an open circuit (the probe, or a last-resort request, got through). */
export function recordSuccess(circuit: Circuit, now: number, settings: BreakerSettings): Transition | undefined {
  if (circuit.open) return close(circuit, now);
  roll(circuit, now, settings.windowMs);
  circuit.requests += 1;
  circuit.consecutiveFailures = 0;
  return undefined;
}

/** A failure the channel is to blame for (5xx, 429, unreachable, timed out, dead key). */
export function recordFailure(circuit: Circuit, now: number, settings: BreakerSettings): Transition | undefined {
  if (circuit.open) {
    // A failed probe re-opens for another cool-down; failures of last-resort requests during the
    // cool-down change nothing.
    return now >= circuit.openUntil ? trip(circuit, now, settings) : undefined;
  }
  roll(circuit, now, settings.windowMs);
  circuit.requests += 1;
  circuit.failures += 1;
  circuit.consecutiveFailures += 1;
  if (settings.consecutiveFailures > 0 && circuit.consecutiveFailures >= settings.consecutiveFailures) return trip(circuit, now, settings);
  if (settings.errorRatePercent > 0) {
    const { requests, failures } = windowCounts(circuit, now, settings.windowMs);
    if (requests >= Math.max(1, settings.minimumRequests) && (failures / requests) * 100 >= settings.errorRatePercent) return trip(circuit, now, settings);
  }
  return undefined;
}

/** Another instance's state change, applied here so every instance skips (or uses) the channel alike. */
export function applyTransition(circuit: Circuit, transition: Transition, now: number): void {
  if (transition.state === 'closed') {
    close(circuit, now);
    return;
  }
  circuit.open = true;
  circuit.openUntil = transition.openUntil;
  circuit.probeUntil = 0;
}
