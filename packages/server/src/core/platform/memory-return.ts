import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from './logger.ts';
import { lazyMallocTrim, type TrimMalloc } from './malloc-trim.ts';

/** V8's `gc` as `--expose-gc` defines it, called with the options used here. */
type CollectGarbage = (options: { type: 'major'; execution: 'async' } | { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface MemoryReturnSettings {
  /** How often the process looks at its footprint and its load. */
  readonly checkEveryMs: number;
  /** Consecutive quiet checks before collecting: the burst must be over, not paused. */
  readonly quietChecks: number;
  /** A check is quiet when the process used less than this share of one core's time since the previous check. */
  readonly quietBelow: number;
  /**
   * The check after the concurrent collection compacts when the process was busy less than this: that
   * collection's own work shows there (4–5 % after 2,000 streams).
   */
  readonly quietAfterFreeingBelow: number;
  /**
   * How far the process's footprint must have grown since the last collection to be worth a pause:
   * about half the default tree's bound after a burst (10 % of its warm level, some 28–30 MB:
   * bench/src/memory/memory-targets.ts), since a burst spreads over its two workers (at 32 MB each
   * kept 20 MB after the picture burst, and the tree stayed 38–43 MB above its warm level for over a
   * minute in 3 of 4 runs; at 16 MB it was back in 15–29 s).
   */
  readonly growthBytes: number;
}

export const memoryReturnDefaults: MemoryReturnSettings = {
  checkEveryMs: 2_000,
  quietChecks: 3,
  quietBelow: 0.02,
  quietAfterFreeingBelow: 0.1,
  growthBytes: 16 * 1024 * 1024,
};

/**
 * Gives memory back once a burst is over. After 2,000 concurrent streams V8 kept its grown heap
 * (125 MB, of which 70 MB garbage) for as long as no new allocation asked for a collection, and its
 * ordinary collections keep the freed pages for reuse: RSS stayed ~160 MB above idle. Growth is read
 * in the process's RSS, not in V8's heap figure: after 100 requests with a 5 MB picture each, V8's own
 * collections had already brought `heapTotal` back near idle (the bodies are Buffers outside the heap,
 * the parsed strings were already freed) while RSS stayed 100–160 MB above idle per worker, so a
 * heap-based check never fired. When the footprint has grown well past its size after the previous
 * return and the event loop has been nearly idle
 * for several seconds, a concurrent collection frees the garbage without a pause; one check later a
 * memory-reducing one (V8's "last resort": compacts and releases the empty pages) has only the live
 * heap left to move. That pause grows with the live heap (the gateway after 2,000 streams: about
 * 200 ms with 40 MB live) and is why it waits for quiet (under 2 % of a core's time for three
 * checks in a row): a steady load never sees it, and it runs once per quiet spell after growth.
 * Then the C allocator's freed memory goes back too (`trimMalloc`: glibc's `malloc_trim(0)`): after
 * 2,000 streams the workers' heaps were back within seconds but glibc's main arena kept 10–25 MiB
 * each of freed chunks between live ones, and the tree stayed 33–49 MiB above its level before.
 */
export class MemoryReturn {
  private readonly collect: CollectGarbage;
  private readonly footprintBytes: () => number;
  private readonly busyShare: () => number;
  private readonly openRequests: () => number;
  private readonly trimMalloc: TrimMalloc | undefined;
  private readonly logger: Logger;
  private readonly settings: MemoryReturnSettings;
  private baselineBytes: number;
  private quietInARow = 0;
  /** The footprint when a concurrent collection ran at the previous check: the compacting one is next. */
  private grownFootprintBytes: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(dependencies: {
    collect: CollectGarbage;
    logger: Logger;
    /** What the process holds: its RSS by default (see the class comment for why not the V8 heap). */
    footprintBytes?: () => number;
    /** Its CPU time over the time since the previous call by default (see cpuBusyShare). */
    busyShare?: () => number;
    /** Requests being answered now (streams included): a check with any is not quiet. */
    openRequests?: () => number;
    /** Gives the C allocator's freed memory back after the compaction (none by default). */
    trimMalloc?: TrimMalloc;
    settings?: MemoryReturnSettings;
  }) {
    this.collect = dependencies.collect;
    this.logger = dependencies.logger;
    this.footprintBytes = dependencies.footprintBytes ?? (() => process.memoryUsage.rss());
    this.busyShare = dependencies.busyShare ?? cpuBusyShare();
    this.openRequests = dependencies.openRequests ?? (() => 0);
    this.trimMalloc = dependencies.trimMalloc;
    this.settings = dependencies.settings ?? memoryReturnDefaults;
    this.baselineBytes = this.footprintBytes();
  }

  start(): void {
    this.timer = setInterval(() => this.check(), this.settings.checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at load and footprint; gives memory back when a grown footprint has been quiet long enough. Returns whether it compacted. */
  check(): boolean {
    const busy = this.busyShare();
    const open = this.openRequests();
    // Ten paced streams keep the process under 2 % busy: without this a pause would land in them.
    const quiet = busy < this.settings.quietBelow && open === 0;
    this.quietInARow = quiet ? this.quietInARow + 1 : 0;
    const footprint = this.footprintBytes();
    this.logger.debug({ busy, open, rssMb: Math.round(footprint / 1_048_576), baselineMb: Math.round(this.baselineBytes / 1_048_576) }, 'memory return check');
    // The footprint may also shrink on its own; the baseline follows it down so the next growth counts from there.
    this.baselineBytes = Math.min(this.baselineBytes, footprint);
    if (this.grownFootprintBytes !== undefined) {
      // The concurrent collection ran at the previous check (it may have shrunk the footprint already).
      const grownFootprintBytes = this.grownFootprintBytes;
      this.grownFootprintBytes = undefined;
      if (busy >= this.settings.quietAfterFreeingBelow || open > 0) return false;
      this.compact(grownFootprintBytes);
      return true;
    }
    if (this.quietInARow >= this.settings.quietChecks && footprint - this.baselineBytes >= this.settings.growthBytes) {
      this.collect({ type: 'major', execution: 'async' });
      this.grownFootprintBytes = footprint;
    }
    return false;
  }

  private compact(grownFootprintBytes: number): void {
    const started = performance.now();
    this.collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const after = this.footprintBytes();
    this.baselineBytes = after;
    this.quietInARow = 0;
    this.logger.info(
      { rssBeforeMb: Math.round(grownFootprintBytes / 1_048_576), rssAfterMb: Math.round(after / 1_048_576), pauseMs: Math.round(performance.now() - started) },
      'returned memory after a burst',
    );
    if (this.trimMalloc) void this.trimAfterCollection(this.trimMalloc, after);
  }

  /**
   * After the collection: the Buffers it freed (socket reads, bodies) are among the chunks the C
   * allocator then holds. The trim runs off the event loop; its result moves the baseline down, so
   * the next growth counts from the trimmed size.
   */
  private async trimAfterCollection(trimMalloc: TrimMalloc, collectedBytes: number): Promise<void> {
    const started = performance.now();
    try {
      const released = await trimMalloc();
      const after = this.footprintBytes();
      this.baselineBytes = Math.min(this.baselineBytes, after);
      this.logger.info(
        {
          released,
          rssBeforeMb: Math.round(collectedBytes / 1_048_576),
          rssAfterMb: Math.round(after / 1_048_576),
          trimMs: Math.round(performance.now() - started),
        },
        "gave the C allocator's free memory back",
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'trimming the C allocator failed');
    }
  }
}

/**
 * The process's CPU time (every thread: its own work and V8's collector threads) over the wall time
 * since the previous call. Not the event loop's utilization, which is wall time too: on a machine
 * other processes keep busy (load average 30–40 on two cores) a task waits for a core in the middle
 * of its work: an idle worker read about 1 % busy, half its bound, and the concurrent collection's own
 * work 15–42 % (bench:memory, 2026-11-28): the compacting collection never ran and the tree stayed
 * 59 MiB above its level before a stream burst. CPU time does not stretch with the machine's load.
 */
export function cpuBusyShare(cpuMicros: () => number = cpuMicrosOfProcess, nowMs: () => number = () => performance.now()): () => number {
  let previousCpu = cpuMicros();
  let previousAt = nowMs();
  return () => {
    const cpu = cpuMicros();
    const at = nowMs();
    const share = at > previousAt ? (cpu - previousCpu) / 1000 / (at - previousAt) : 0;
    previousCpu = cpu;
    previousAt = at;
    return share;
  };
}

function cpuMicrosOfProcess(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Starts the memory return when the process runs with `--expose-gc` (the server's Node flags); a
 * process started without it (tests, a custom command) simply keeps V8's own timing. Called before
 * the server listens: what start-up left behind (module loading, migrations, the first cache loads)
 * is garbage by then, and compacting it once, while no request can wait on it, took the idle gateway
 * from 128 to 111 MB of RSS (80 to 63 MB private). It counts the server's open requests itself.
 */
export function startMemoryReturn(logger: Logger, server: Server): MemoryReturn | undefined {
  const collect = exposedGc();
  if (!collect) return undefined;
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  const trimMalloc = lazyMallocTrim((reason) => logger.info({ reason }, 'memory return: the C allocator is not trimmed'));
  const memoryReturn = new MemoryReturn({ collect, logger, openRequests: countOpenRequests(server), trimMalloc });
  memoryReturn.start();
  return memoryReturn;
}

/**
 * The WORKERS primary's one compaction, once every worker serves: its start-up (the config's schemas,
 * forking, the workers' first messages) leaves garbage and a grown young generation that nothing
 * would collect in a process that then mostly waits (4 MB of its 14 MB heap, measured). Returns
 * whether it ran (only with `--expose-gc`).
 */
export function compactStartupGarbage(): boolean {
  const collect = exposedGc();
  collect?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return collect !== undefined;
}

function exposedGc(): CollectGarbage | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  return typeof exposed === 'function' ? (exposed as CollectGarbage) : undefined;
}

/** How many of the server's requests are not yet answered or closed (one listener per request). */
export function countOpenRequests(server: Server): () => number {
  let open = 0;
  const closed = () => {
    open -= 1;
  };
  server.on('request', (_request, response) => {
    open += 1;
    // `on`, not `once`: a response closes once, and `once` wrapped the listener anew for every request.
    response.on('close', closed);
  });
  return () => open;
}
