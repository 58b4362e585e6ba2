import type { BenchReport } from './bench-report.ts';
import { budgetChecks } from './budgets.ts';

/**
 * Why this run fails, one line per reason: a target that stopped part-way (a skipped one, such as a
 * PostgreSQL that is not installed, is not a failure) and every budget missed. `npm run bench` exits
 * non-zero when the list is not empty, so a regression cannot hide in a table nobody reads.
 */
export function benchFailures(report: BenchReport): string[] {
  const failures: string[] = [];
  for (const target of report.targets) if (target.failed) failures.push(`${target.label} stopped early: ${target.failed}`);
  for (const check of budgetChecks(report)) if (!check.met) failures.push(`budget missed: ${check.budget} (measured ${check.measured})`);
  return failures;
}
