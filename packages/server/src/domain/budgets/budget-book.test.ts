import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { BudgetBook } from './budget-book.ts';
import { BudgetRepository, type BudgetOwner, type BudgetRow } from './budget.repository.ts';

/** A repository whose next full read of budgets answers the rows it read, but only when released (a slow periodic reload). */
class HeldRepository extends BudgetRepository {
  private hold: { held: Promise<void>; release: () => void } | undefined;

  holdNextFullRead(): () => void {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.hold = { held, release };
    return release;
  }

  override async allBudgets(owner: BudgetOwner): Promise<BudgetRow[]> {
    // Both owners of one full reload are held (it asks for them in the same turn).
    const hold = this.hold;
    if (owner === 'user') this.hold = undefined;
    const rows = await super.allBudgets(owner);
    if (hold) await hold.held;
    return rows;
  }
}

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('the budget book: a full reload racing a single change on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => testApp.close());

  const setBudget = (table: 'tokens' | 'users', id: number, quota: number) =>
    testApp.context.database.db.updateTable(table).set({ budget_quota: quota, budget_period: 'day' }).where('id', '=', id).execute();

  it('keeps the limit a re-read applied when a full reload read the row before the edit', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    await setBudget('tokens', token.id, 1_000);
    await setBudget('users', user.id, 5_000);
    const repository = new HeldRepository(testApp.context.database.db);
    const book = new BudgetBook(repository);
    await book.loadAll();
    expect(book.token(token.id)?.limit).toBe(1_000);

    const release = repository.holdNextFullRead();
    const fullReload = book.loadAll(); // reads 1,000 and 5,000, answers late
    await setBudget('tokens', token.id, 300);
    await setBudget('users', user.id, 0);
    // What the change bus triggers after each write.
    await book.reload('token', token.id);
    await book.reload('user', user.id);
    release();
    await fullReload;

    expect(book.token(token.id)?.limit).toBe(300);
    expect(book.user(user.id)).toBeUndefined();
    // The next full reload takes the database as it is.
    await book.loadAll();
    expect(book.token(token.id)?.limit).toBe(300);
    expect(book.user(user.id)).toBeUndefined();
  });

  it('keeps a budget set meanwhile when the full reload read the owner before it had one', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new HeldRepository(testApp.context.database.db);
    const book = new BudgetBook(repository);
    await book.loadAll();

    const release = repository.holdNextFullRead();
    const fullReload = book.loadAll();
    await setBudget('tokens', token.id, 700);
    await book.reload('token', token.id);
    release();
    await fullReload;

    expect(book.token(token.id)?.limit).toBe(700);
  });
});
