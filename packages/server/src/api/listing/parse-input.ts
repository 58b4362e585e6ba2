import type { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { commonMessages } from '../../messages/catalogue.ts';

/** Parses a request body or query with a schema; malformed input is a 400 "Invalid parameter". */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new AppError(commonMessages.invalidParameter, { status: 400 });
  return parsed.data;
}
