import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { WireShape } from './wire-shape.ts';

/** One `/api` call a console makes, and what it reads from the answer (`null`: only `success`). */
export interface ConsoleCall {
  screen: string;
  as: 'anonymous' | 'member' | 'root';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** With `{placeholders}` for the seeded rows and for values `capture`d from earlier answers. */
  url: string;
  body?: Record<string, unknown>;
  reads: WireShape | null;
  /** Top-level fields the console reads beside `data` (the pricing page's `group_ratio`). */
  besideData?: WireShape;
  /** For `GET /api/option/`: keys the console's settings pages read. */
  optionKeys?: string[];
  /** The page number the console expects back (lists of the later dialect). */
  page?: number;
  /** placeholder → dotted path in the answer (`data.0`, `data.id`). */
  capture?: Record<string, string>;
}

export interface ConsoleFixture {
  console: string;
  dialect: 'classic' | 'paged';
  calls: ConsoleCall[];
}

const folder = join(import.meta.dirname, '..', '__fixtures__');

function readJson(name: string): unknown {
  const parsed = safeParseJson(readFileSync(join(folder, name), 'utf8'));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.error}`);
  return parsed.value;
}

export const consoleFixture = (name: 'classic-console.json' | 'paged-console.json') => readJson(name) as ConsoleFixture;
export const namedShapes = () => readJson('shapes.json') as Record<string, WireShape>;
