import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { slowestUnitTestFiles } from './unit-test-files.ts';

const root = new URL('../..', import.meta.url).pathname;

/**
 * `files` with those named in `slowest` first, in its order, then the others in the order given.
 * Exported for its test; `pathOf` gives a file's path relative to the repository root.
 */
export function slowestFirst<File>(files: readonly File[], pathOf: (file: File) => string, slowest: readonly string[]): File[] {
  const rank = new Map(slowest.map((path, index) => [path, index]));
  const known = files.filter((file) => rank.has(pathOf(file)));
  known.sort((a, b) => rank.get(pathOf(a))! - rank.get(pathOf(b))!);
  return [...known, ...files.filter((file) => !rank.has(pathOf(file)))];
}

/**
 * Vitest sorts files longest first only from the durations of an earlier run on this machine, which
 * a fresh clone (CI) does not have; then it sorts them by size, and a long file (a minute or more,
 * starting gateway processes) may start last and run alone at the end while the other workers idle.
 * This sequencer starts the files measured longest first (`slowestUnitTestFiles`), the rest as vitest
 * would order them.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return slowestFirst(await super.sort(files), (file) => relative(root, file.moduleId), slowestUnitTestFiles);
  }
}
