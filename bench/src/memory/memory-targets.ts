/** The memory targets of the default tree (issue 33 item 8), and the figures the memory bench takes. */
export const memoryTargets = {
  imageRequests: 100,
  imageBodyBytes: 5 * 1024 * 1024,
  /** Peak above idle while the image requests run, as a multiple of the bodies' total size. */
  imagePeakPerBodyBytes: 2,
  /** RSS of the whole default tree (primary + one worker per core, 2 cores) at rest. */
  idleRssBytes: 200 * 1024 * 1024,
  burstStreams: 2000,
  /**
   * After a burst the tree comes back to within this share of its RSS before it (its warm level, about
   * 30 MiB of the default tree's 290), within backWithinMs, and stays there.
   */
  backNearShare: 0.1,
  backWithinMs: 30_000,
  /** How long, and how often, the tree is read after a burst. */
  watchAfterBurstMs: 60_000,
  sampleEveryMs: 1_000,
};

/** The tolerance around `levelBytes` within which the tree counts as back after a burst. */
export const backNearBytes = (levelBytes: number): number => levelBytes * memoryTargets.backNearShare;

export interface MemoryFigures {
  idleRssBytes: number;
  /** The same tree's proportional set size: shared pages (the Node binary) counted once. */
  idlePssBytes: number;
  privateBytesPerProcess: Record<string, number>;
  /**
   * The tree at rest after one image request and one stream: what any used gateway holds for good
   * (the primary's SQLite writer thread, the caches, the compiled request path, the upstream pool).
   * A burst is measured against this level, so what it leaves behind is not confused with warm-up.
   */
  warmRssBytes?: number;
  imageRequestsOk?: number;
  imageBodiesBytes?: number;
  imagePeakAboveIdleBytes?: number;
  afterImagesRssBytes?: number;
  /** Undefined when the tree was still above the tolerance around its warm level at the end of the watch. */
  imagesBackWithinMs?: number;
  beforeBurstRssBytes?: number;
  burstPeakRssBytes?: number;
  burstIncomplete?: number;
  afterBurstRssBytes?: number;
  /** Undefined when the tree was still above the tolerance at the end of the watch. */
  backWithinMs?: number;
  /** The same for the tree's PSS against its PSS before the burst. */
  backWithinPssMs?: number;
  beforeBurstPssBytes?: number;
  afterBurstPssBytes?: number;
  primaryRssBytes?: number;
}

export interface MemoryRow {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const seconds = (ms: number | undefined) => (ms === undefined ? `not within ${memoryTargets.watchAfterBurstMs / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
const share = `${memoryTargets.backNearShare * 100} %`;

/** One row per target the run measured: the figure, the target, and whether it was met. */
export function memoryRows(figures: MemoryFigures): MemoryRow[] {
  const rows: MemoryRow[] = [
    {
      figure: 'idle tree RSS',
      measured: mib(figures.idleRssBytes),
      target: `≤ ${mib(memoryTargets.idleRssBytes)}`,
      met: figures.idleRssBytes <= memoryTargets.idleRssBytes,
    },
  ];
  if (figures.imageRequestsOk !== undefined)
    rows.push({
      figure: 'image requests answered 200',
      measured: String(figures.imageRequestsOk),
      target: String(memoryTargets.imageRequests),
      met: figures.imageRequestsOk === memoryTargets.imageRequests,
    });
  if (figures.imagePeakAboveIdleBytes !== undefined && figures.imageBodiesBytes !== undefined) {
    const limit = figures.imageBodiesBytes * memoryTargets.imagePeakPerBodyBytes;
    rows.push({
      figure: 'image requests: peak above idle',
      measured: `${mib(figures.imagePeakAboveIdleBytes)} (${(figures.imagePeakAboveIdleBytes / figures.imageBodiesBytes).toFixed(2)}× the bodies)`,
      target: `≤ ${mib(limit)} (${memoryTargets.imagePeakPerBodyBytes}×)`,
      met: figures.imagePeakAboveIdleBytes <= limit,
    });
  }
  if (figures.afterImagesRssBytes !== undefined)
    rows.push({
      figure: `image requests: back within ${share} of the warm level`,
      measured: seconds(figures.imagesBackWithinMs),
      target: `≤ ${memoryTargets.backWithinMs / 1000} s`,
      met: figures.imagesBackWithinMs !== undefined && figures.imagesBackWithinMs <= memoryTargets.backWithinMs,
    });
  if (figures.burstIncomplete !== undefined)
    rows.push({
      figure: `${memoryTargets.burstStreams} streams: incomplete`,
      measured: String(figures.burstIncomplete),
      target: '0',
      met: figures.burstIncomplete === 0,
    });
  if (figures.afterBurstRssBytes !== undefined)
    rows.push({
      figure: `${memoryTargets.burstStreams} streams: back within ${share} of the level before`,
      measured: seconds(figures.backWithinMs),
      target: `≤ ${memoryTargets.backWithinMs / 1000} s`,
      met: figures.backWithinMs !== undefined && figures.backWithinMs <= memoryTargets.backWithinMs,
    });
  return rows;
}

/** The targets a run missed, one sentence each. */
export function memoryVerdict(figures: MemoryFigures): string[] {
  return memoryRows(figures)
    .filter((row) => !row.met)
    .map((row) => `${row.figure}: ${row.measured}, target ${row.target}`);
}
