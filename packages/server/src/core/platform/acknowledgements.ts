/**
 * Waits for the members of a group (the workers of a machine, the instances sharing Redis) to confirm
 * one message each. A wait ends when every member has confirmed or left, or when the time allowed is
 * up: it never outlasts `timeoutMs`, so a stuck or dead member cannot hold the sender forever.
 */
export class Acknowledgements<Member> {
  private readonly waits = new Map<number, { readonly missing: Set<Member>; finish(): void }>();
  private readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Starts waiting for `members` to confirm message `id`; resolves with those that did not in time. */
  expect(id: number, members: Iterable<Member>): Promise<Member[]> {
    const missing = new Set(members);
    if (missing.size === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waits.delete(id);
        resolve([...missing]);
      };
      const timer = setTimeout(finish, this.timeoutMs);
      this.waits.set(id, { missing, finish });
    });
  }

  /** `member` has applied message `id` (a confirmation for no wait, or a late one, is ignored). */
  acknowledge(id: number, member: Member): void {
    const wait = this.waits.get(id);
    if (!wait?.missing.delete(member)) return;
    if (wait.missing.size === 0) wait.finish();
  }

  /** `member` is gone: no wait counts on it any more. */
  leave(member: Member): void {
    for (const wait of [...this.waits.values()]) if (wait.missing.delete(member) && wait.missing.size === 0) wait.finish();
  }
}
