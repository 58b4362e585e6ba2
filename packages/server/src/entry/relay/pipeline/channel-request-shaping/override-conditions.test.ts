import { describe, expect, it } from 'vitest';
import { conditionsHold, type OverrideCondition } from './override-conditions.ts';

const condition = (path: string, mode: string, value: unknown, extra: Partial<OverrideCondition> = {}): OverrideCondition => ({
  path,
  mode,
  value,
  invert: false,
  passMissingKey: false,
  ...extra,
});

const body = { model: 'gpt-4o-mini', max_tokens: 500, stream: true, messages: [{ role: 'user', content: 'hello world' }] };

describe('param_override conditions', () => {
  it('compares with every mode', () => {
    expect(conditionsHold(body, [condition('model', 'full', 'gpt-4o-mini')], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('model', '', 'gpt-4o')], 'OR')).toBe(false);
    expect(conditionsHold(body, [condition('model', 'prefix', 'gpt-4o')], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('model', 'suffix', '-mini')], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('messages.-1.content', 'contains', 'world')], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('max_tokens', 'gt', 499)], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('max_tokens', 'gte', 500)], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('max_tokens', 'lt', 500)], 'OR')).toBe(false);
    expect(conditionsHold(body, [condition('max_tokens', 'lte', 500)], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('stream', 'full', true)], 'OR')).toBe(true);
  });

  it('never matches across types, nor numerically on text', () => {
    expect(conditionsHold(body, [condition('max_tokens', 'full', '500')], 'OR')).toBe(false);
    expect(conditionsHold(body, [condition('model', 'gt', 1)], 'OR')).toBe(false);
    expect(conditionsHold(body, [condition('model', 'unknown-mode', 'gpt-4o-mini')], 'OR')).toBe(false);
  });

  it('inverts, and lets a missing key pass only when told to', () => {
    expect(conditionsHold(body, [condition('model', 'prefix', 'claude', { invert: true })], 'OR')).toBe(true);
    expect(conditionsHold(body, [condition('missing', 'full', 1)], 'OR')).toBe(false);
    expect(conditionsHold(body, [condition('missing', 'full', 1, { passMissingKey: true })], 'OR')).toBe(true);
  });

  it('needs one condition by default (OR) and all of them with AND', () => {
    const mixed = [condition('model', 'prefix', 'gpt'), condition('stream', 'full', false)];
    expect(conditionsHold(body, mixed, 'OR')).toBe(true);
    expect(conditionsHold(body, mixed, 'and')).toBe(false);
    expect(conditionsHold(body, [], 'AND')).toBe(true);
  });
});
