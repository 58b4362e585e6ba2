import { appendFileSync } from 'node:fs';

/**
 * Appends one run's figures as a JSON line to the file named by the environment variable `variable`,
 * when it is set (nothing otherwise). The drain, kill and outage tests bound each run with their
 * assertions; their repeated runs (issue 33 asks for ten per engine) are read from these files.
 */
export function recordRunFigures(variable: string, figures: Record<string, unknown>): void {
  const file = process.env[variable];
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}
