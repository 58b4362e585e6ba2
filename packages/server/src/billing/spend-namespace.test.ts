import { describe, expect, it } from 'vitest';
import { spendNamespace } from './spend-namespace.ts';

describe('spending account namespace', () => {
  it('is the same for every instance of one database, whatever the credentials, and differs between databases', () => {
    const one = spendNamespace('postgres://gateway:secret@db.internal:5432/switchboard', '');
    expect(spendNamespace('postgres://other:pass@db.internal:5432/switchboard?sslmode=disable', '')).toBe(one);
    expect(spendNamespace('postgres://gateway:secret@db.internal:5432/another', '')).not.toBe(one);
    expect(spendNamespace('gateway:secret@tcp(db.internal:3306)/switchboard', '')).toBe(spendNamespace('mysql://x@db.internal:3306/switchboard', ''));
    expect(spendNamespace('', 'data/a.db')).not.toBe(spendNamespace('', 'data/b.db'));
    expect(one).toMatch(/^[0-9a-f]{12}$/);
  });
});
