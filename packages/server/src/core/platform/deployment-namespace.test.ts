import { describe, expect, it } from 'vitest';
import { deploymentNamespace } from './deployment-namespace.ts';

describe('deployment namespace in Redis', () => {
  it('is the same for every instance of one database, whatever the credentials, and differs between databases', () => {
    const one = deploymentNamespace('postgres://gateway:secret@db.internal:5432/switchboard', '');
    expect(deploymentNamespace('postgres://other:pass@db.internal:5432/switchboard?sslmode=disable', '')).toBe(one);
    expect(deploymentNamespace('postgres://gateway:secret@db.internal:5432/another', '')).not.toBe(one);
    expect(deploymentNamespace('gateway:secret@tcp(db.internal:3306)/switchboard', '')).toBe(deploymentNamespace('mysql://x@db.internal:3306/switchboard', ''));
    expect(deploymentNamespace('', 'data/a.db')).not.toBe(deploymentNamespace('', 'data/b.db'));
    expect(one).toMatch(/^[0-9a-f]{12}$/);
  });
});
