import { describe, expect, it } from 'vitest';
import { isValidJson, toFormValue, toOptionText, type OptionField } from './option-field.ts';

const address: OptionField = { key: 'ServerAddress', kind: 'text', trimTrailingSlash: true };

describe('toOptionText', () => {
  it('stores switches as true/false and trims addresses of trailing slashes', () => {
    expect(toOptionText({ key: 'RegisterEnabled', kind: 'switch' }, true)).toBe('true');
    expect(toOptionText({ key: 'RegisterEnabled', kind: 'switch' }, undefined)).toBe('false');
    expect(toOptionText(address, ' https://gateway.example/// ')).toBe('https://gateway.example');
  });

  it('trims plain text but keeps multi-line text and JSON as typed', () => {
    expect(toOptionText({ key: 'SystemName', kind: 'text' }, '  Gateway ')).toBe('Gateway');
    expect(toOptionText({ key: 'Notice', kind: 'textarea' }, '  # Title\n')).toBe('  # Title\n');
    expect(toOptionText({ key: 'RetryTimes', kind: 'number' }, null)).toBe('');
  });
});

describe('toFormValue', () => {
  it('loads secrets empty, numbers as numbers and switches as booleans', () => {
    expect(toFormValue({ key: 'SMTPToken', kind: 'secret' }, 'stored')).toBe('');
    expect(toFormValue({ key: 'RetryTimes', kind: 'number' }, '3')).toBe(3);
    expect(toFormValue({ key: 'RetryTimes', kind: 'number' }, '')).toBeNull();
    expect(toFormValue({ key: 'RegisterEnabled', kind: 'switch' }, 'true')).toBe(true);
  });
});

describe('isValidJson', () => {
  it('accepts empty text and JSON, refuses the rest', () => {
    expect(isValidJson('  ')).toBe(true);
    expect(isValidJson('{"default": 1}')).toBe(true);
    expect(isValidJson('{ not json')).toBe(false);
  });
});
