import { describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../testing/migrated-test-database.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { inTransaction } from './in-transaction.ts';

describe.each(testDatabases())('inTransaction on $dialect', (database) => {
  const opened = useMigratedDatabase(database);

  const option = async (key: string) => (await opened().db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

  it('runs a unit of work nested in another inside the outer transaction: both commit together', async () => {
    await inTransaction(opened().db, async (outer) => {
      await outer.insertInto('options').values({ key: 'outer-commit', value: '1' }).execute();
      await inTransaction(outer, (inner) => inner.insertInto('options').values({ key: 'inner-commit', value: '2' }).execute());
    });
    expect([await option('outer-commit'), await option('inner-commit')]).toEqual(['1', '2']);
  });

  it('rolls the nested unit of work back with the outer one', async () => {
    const failure = inTransaction(opened().db, async (outer) => {
      await outer.insertInto('options').values({ key: 'outer-rollback', value: '1' }).execute();
      await inTransaction(outer, (inner) => inner.insertInto('options').values({ key: 'inner-rollback', value: '2' }).execute());
      throw new Error('the unit of work fails after both writes');
    });
    await expect(failure).rejects.toThrow('the unit of work fails after both writes');
    expect([await option('outer-rollback'), await option('inner-rollback')]).toEqual([undefined, undefined]);
  });
});
