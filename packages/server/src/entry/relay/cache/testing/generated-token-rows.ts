import type { TokenReads, TokenRow } from '../relay-cache.repository.ts';

/** A 48-character key for token `id`, as a flat string of its own (as a database driver hands one over). */
export function generatedKey(id: number): string {
  return Buffer.from(`k${String(id).padStart(47, '0')}`, 'latin1').toString('latin1');
}

/**
 * Token rows made up on demand, shaped like new-api's (48-character key, a name, no model or address
 * limits): the memory tests load tens of thousands without a database, and nothing but the cache
 * keeps them. Reads are counted.
 */
export class GeneratedTokenRows implements TokenReads {
  reads = 0;
  /** Ids whose rows are gone (deleted tokens). */
  readonly deleted = new Set<number>();
  remainQuota = 500_000;

  row(id: number, key = generatedKey(id)): TokenRow | undefined {
    if (this.deleted.has(id)) return undefined;
    return {
      id,
      user_id: 1 + (id % 50_000),
      key,
      status: 1,
      name: `token ${id}`,
      expired_time: -1,
      remain_quota: this.remainQuota,
      unlimited_quota: 0,
      model_limits_enabled: 0,
      model_limits: '',
      allow_ips: '',
      used_quota: 0,
      group: '',
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      log_payload: 0,
      response_cache_off: 0,
      model_fallbacks: null,
    };
  }

  tokenByKey(key: string): Promise<TokenRow | undefined> {
    this.reads += 1;
    return Promise.resolve(/^k\d{47}$/.test(key) ? this.row(Number(key.slice(1)), key) : undefined);
  }

  tokenById(id: number): Promise<TokenRow | undefined> {
    this.reads += 1;
    return Promise.resolve(this.row(id));
  }

  tokensByIds(ids: readonly number[]): Promise<TokenRow[]> {
    this.reads += 1;
    return Promise.resolve(ids.flatMap((id) => this.row(id) ?? []));
  }

  markTokenExpired(): Promise<void> {
    return Promise.resolve();
  }
}
