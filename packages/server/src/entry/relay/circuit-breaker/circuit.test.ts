import { describe, expect, it } from 'vitest';
import { admit, applyTransition, type BreakerSettings, isUsable, newCircuit, recordFailure, recordSuccess, releaseProbe, stateAt } from './circuit.ts';

const settings: BreakerSettings = {
  enabled: true,
  consecutiveFailures: 3,
  errorRatePercent: 50,
  minimumRequests: 10,
  windowMs: 60_000,
  cooldownMs: 30_000,
  probeTimeoutMs: 60_000,
};

describe('circuit breaker state machine', () => {
  it('opens after N consecutive failures, not before, and a success in between starts the count again', () => {
    const circuit = newCircuit(0);
    expect(recordFailure(circuit, 1, settings)).toBeUndefined();
    expect(recordFailure(circuit, 2, settings)).toBeUndefined();
    recordSuccess(circuit, 3, settings);
    expect(recordFailure(circuit, 4, settings)).toBeUndefined();
    expect(recordFailure(circuit, 5, settings)).toBeUndefined();
    expect(stateAt(circuit, 5)).toBe('closed');
    expect(recordFailure(circuit, 6, settings)).toEqual({ state: 'open', openUntil: 30_006 });
    expect(stateAt(circuit, 6)).toBe('open');
    expect(isUsable(circuit, 30_005)).toBe(false);
  });

  it('opens on the error rate over the window once it has seen enough requests', () => {
    const rate = { ...settings, consecutiveFailures: 0 };
    const circuit = newCircuit(0);
    // Alternating: never two failures in a row, 50 % failing.
    for (let index = 0; index < 8; index += 1) {
      const transition = index % 2 === 0 ? recordSuccess(circuit, index, rate) : recordFailure(circuit, index, rate);
      expect(transition).toBeUndefined();
    }
    recordSuccess(circuit, 8, rate);
    expect(recordFailure(circuit, 9, rate)).toMatchObject({ state: 'open' });
  });

  it('forgets failures older than the window', () => {
    const rate = { ...settings, consecutiveFailures: 0, minimumRequests: 4 };
    const circuit = newCircuit(0);
    for (let index = 0; index < 3; index += 1) recordFailure(circuit, index, rate);
    // Two windows later only fresh requests count: three successes and one failure is 25 %.
    for (let index = 0; index < 3; index += 1) recordSuccess(circuit, 130_000 + index, rate);
    expect(recordFailure(circuit, 130_010, rate)).toBeUndefined();
    expect(stateAt(circuit, 130_010)).toBe('closed');
  });

  it('lets one probe through when half-open, closes on its success and re-opens on its failure', () => {
    const circuit = newCircuit(0);
    for (let index = 0; index < 3; index += 1) recordFailure(circuit, index, settings);
    expect(admit(circuit, 29_000, settings)).toBe(false);
    expect(stateAt(circuit, 30_002)).toBe('half-open');
    expect(admit(circuit, 30_002, settings)).toBe(true);
    // The probe is out: nothing else passes.
    expect(isUsable(circuit, 30_003)).toBe(false);
    expect(admit(circuit, 30_003, settings)).toBe(false);
    expect(recordFailure(circuit, 30_010, settings)).toEqual({ state: 'open', openUntil: 60_010 });
    expect(admit(circuit, 60_010, settings)).toBe(true);
    expect(recordSuccess(circuit, 60_020, settings)).toEqual({ state: 'closed' });
    expect(stateAt(circuit, 60_020)).toBe('closed');
    expect(circuit.consecutiveFailures).toBe(0);
  });

  it('gives a probe slot back when the probe ended neutrally or never reported', () => {
    const circuit = newCircuit(0);
    for (let index = 0; index < 3; index += 1) recordFailure(circuit, index, settings);
    expect(admit(circuit, 30_002, settings)).toBe(true);
    releaseProbe(circuit);
    expect(admit(circuit, 30_003, settings)).toBe(true);
    expect(isUsable(circuit, 30_003 + settings.probeTimeoutMs - 1)).toBe(false);
    expect(isUsable(circuit, 30_003 + settings.probeTimeoutMs)).toBe(true);
  });

  it('ignores failures of last-resort requests during the cool-down', () => {
    const circuit = newCircuit(0);
    for (let index = 0; index < 3; index += 1) recordFailure(circuit, index, settings);
    expect(recordFailure(circuit, 10_000, settings)).toBeUndefined();
    expect(circuit.openUntil).toBe(30_002);
  });

  it("applies another instance's transitions", () => {
    const circuit = newCircuit(0);
    applyTransition(circuit, { state: 'open', openUntil: 5_000 }, 1_000);
    expect(stateAt(circuit, 1_000)).toBe('open');
    expect(stateAt(circuit, 5_000)).toBe('half-open');
    applyTransition(circuit, { state: 'closed' }, 6_000);
    expect(stateAt(circuit, 6_000)).toBe('closed');
  });
});
