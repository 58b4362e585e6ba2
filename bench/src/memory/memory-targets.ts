/** The memory targets of the default tree (issue 33 item 8), and the figures the memory bench takes. */
export const memoryTargets = {
  imageRequests: 100,
  imageBodyBytes: 5 * 1024 * 1024,
  /** Peak above idle while the image requests run, as a multiple of the bodies' total size. */
  imagePeakPerBodyBytes: 2,
  /** RSS of the whole default tree (primary + one worker per core, 2 cores) at rest. */
  idleRssBytes: 200 * 1024 * 1024,
  burstStreams: 2000,
  /** After the burst the tree comes back to within this much of its RSS before it, within backWithinMs. */
  backNearIdleBytes: 32 * 1024 * 1024,
  backWithinMs: 30_000,
};

export interface MemoryFigures {
  idleRssBytes: number;
  /** The same tree's proportional set size: shared pages (the Node binary) counted once. */
  idlePssBytes: number;
  privateBytesPerProcess: Record<string, number>;
  imageRequestsOk?: number;
  imageBodiesBytes?: number;
  imagePeakAboveIdleBytes?: number;
  afterImagesRssBytes?: number;
  /** Undefined when the tree did not come back near idle within twice the target. */
  imagesBackWithinMs?: number;
  beforeBurstRssBytes?: number;
  burstPeakRssBytes?: number;
  burstIncomplete?: number;
  afterBurstRssBytes?: number;
  /** Undefined when the tree did not come back within twice the target. */
  backWithinMs?: number;
  primaryRssBytes?: number;
}

/** The targets a run missed, one sentence each. */
export function memoryVerdict(figures: MemoryFigures): string[] {
  const failures: string[] = [];
  const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
  if (figures.idleRssBytes > memoryTargets.idleRssBytes) failures.push(`idle RSS ${mib(figures.idleRssBytes)} > ${mib(memoryTargets.idleRssBytes)}`);
  if (figures.imageRequestsOk !== undefined && figures.imageRequestsOk < memoryTargets.imageRequests)
    failures.push(`${memoryTargets.imageRequests - figures.imageRequestsOk} image requests not answered 200`);
  if (figures.imagePeakAboveIdleBytes !== undefined && figures.imageBodiesBytes !== undefined) {
    const limit = figures.imageBodiesBytes * memoryTargets.imagePeakPerBodyBytes;
    if (figures.imagePeakAboveIdleBytes > limit) failures.push(`image requests peaked ${mib(figures.imagePeakAboveIdleBytes)} above idle > ${mib(limit)}`);
  }
  if (figures.afterImagesRssBytes !== undefined && (figures.imagesBackWithinMs === undefined || figures.imagesBackWithinMs > memoryTargets.backWithinMs))
    failures.push(`RSS not back within ${mib(memoryTargets.backNearIdleBytes)} of idle ${memoryTargets.backWithinMs / 1000} s after the image requests`);
  if (figures.burstIncomplete) failures.push(`${figures.burstIncomplete} streams of the burst incomplete`);
  if (figures.afterBurstRssBytes !== undefined && figures.backWithinMs === undefined)
    failures.push(`RSS not back within ${mib(memoryTargets.backNearIdleBytes)} of its level before the burst after ${memoryTargets.backWithinMs / 1000} s`);
  if (figures.backWithinMs !== undefined && figures.backWithinMs > memoryTargets.backWithinMs)
    failures.push(`RSS back near its level before the burst only after ${(figures.backWithinMs / 1000).toFixed(1)} s`);
  return failures;
}
