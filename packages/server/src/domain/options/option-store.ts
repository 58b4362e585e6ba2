import { optionDefinitions, optionKeys, type OptionKey } from '@switchboard/contracts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import type { OptionRepository } from './option.repository.ts';

const changeTopic = 'options';

/**
 * Every option held in memory, so no request reads the options table. A write goes to the database,
 * then to this instance's memory, then over the change bus to the other processes, and resolves once
 * they have it too. A periodic reload (SYNC_FREQUENCY) covers writes made by other tools to the database.
 */
export class OptionStore {
  private values = new Map<string, string>();
  private readonly parsedJson = new Map<string, unknown>();
  /** Moves on whenever any value may have changed: values derived from options are rebuilt once it moved. */
  private generationCount = 0;
  private readonly listeners: Array<(key: string) => void> = [];
  /** Counts this instance's writes, so a reload can tell which ones it may not have seen. */
  private writeCount = 0;
  /** Values written here, by write number, until a reload that started after them has applied. */
  private readonly recentWrites = new Map<string, { write: number; value: string }>();
  private reloadsStarted = 0;
  private newestReloadApplied = 0;

  private readonly repository: OptionRepository;
  private readonly bus: ChangeBus;

  constructor(repository: OptionRepository, bus: ChangeBus) {
    this.repository = repository;
    this.bus = bus;
    // Awaited by the bus: the publisher's answer waits until this process has the new values.
    bus.subscribe(changeTopic, () => this.reload());
  }

  /** Seeds the keys a fresh (or imported) database lacks, then loads everything. */
  async initialise(): Promise<void> {
    const stored = await this.repository.readAll();
    const missing = optionKeys.filter((key) => !stored.has(key)).map((key) => [key, optionDefinitions[key].defaultValue] as const);
    await this.repository.insertMissing(missing);
    await this.reload();
  }

  /**
   * Reads every option again. Reloads overlap (the bus, the timer) and a read can be older than a
   * write made here meanwhile: a reload that finishes after a newer one is dropped, and values written
   * here after the read started are kept, so a stale read never undoes a saved setting.
   */
  async reload(): Promise<void> {
    const reload = ++this.reloadsStarted;
    const writesBefore = this.writeCount;
    const stored = await this.repository.readAll();
    if (reload < this.newestReloadApplied) return;
    this.newestReloadApplied = reload;
    for (const [key, recent] of this.recentWrites) {
      if (recent.write > writesBefore) stored.set(key, recent.value);
      else this.recentWrites.delete(key);
    }
    const changed = [...stored.keys()].filter((key) => this.values.get(key) !== stored.get(key));
    this.values = stored;
    this.parsedJson.clear();
    this.generationCount += 1;
    for (const key of changed) for (const listener of this.listeners) listener(key);
  }

  /** Called after any option changes on any instance (with the key that changed). */
  onChange(listener: (key: string) => void): void {
    this.listeners.push(listener);
  }

  /** Changes whenever an option may have changed (a reload or a write): what is cached from options stays valid while it stays. */
  get generation(): number {
    return this.generationCount;
  }

  get(key: OptionKey): string {
    return this.values.get(key) ?? optionDefinitions[key].defaultValue;
  }

  getBoolean(key: OptionKey): boolean {
    return this.get(key) === 'true';
  }

  getNumber(key: OptionKey): number {
    const value = Number(this.get(key));
    return Number.isFinite(value) ? value : Number(optionDefinitions[key].defaultValue);
  }

  /** Parsed JSON value, cached until the option changes; the default when the stored text is broken. */
  getJson<T>(key: OptionKey): T {
    if (!this.parsedJson.has(key)) {
      const parsed = safeParseJson(this.get(key));
      this.parsedJson.set(key, parsed.ok ? parsed.value : (safeParseJson(optionDefinitions[key].defaultValue) as { value: unknown }).value);
    }
    return this.parsedJson.get(key) as T;
  }

  /** All stored key/value pairs, including keys this version does not know (kept from imports). */
  entries(): Array<[string, string]> {
    return [...this.values.entries()];
  }

  async set(key: string, value: string): Promise<void> {
    await this.repository.upsert(key, value);
    this.recentWrites.set(key, { write: ++this.writeCount, value });
    const previous = this.values.get(key);
    this.values.set(key, value);
    this.parsedJson.delete(key);
    this.generationCount += 1;
    if (previous !== value) for (const listener of this.listeners) listener(key);
    await this.bus.publish(changeTopic, key);
  }
}
