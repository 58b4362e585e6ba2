import { controlCharacterRule } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../app-error.ts';
import { commonMessages, type LocalizedMessage } from '../../messages/catalogue.ts';
import { inputMessages } from './input.messages.ts';

/**
 * Bad input is HTTP 400 on every route, as Fastify's own refusals (malformed JSON, schema errors)
 * already are: a client can tell "you sent nonsense" from a business refusal (200, `success:false`,
 * as in new-api), and the console shows the message either way.
 */
const badInput = 400;

function fieldName(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** A 400 naming the field, for readers that check a value without a schema (query parameters). */
export function fieldRefusal(field: string, message: LocalizedMessage = inputMessages.invalidField, params: Record<string, string | number> = {}): AppError {
  return new AppError(message, { status: badInput, params: { ...params, field } });
}

type Issue = z.core.$ZodIssue;

/** Inside a union, the branch issue that reaches deepest says best which field is wrong. */
function mostSpecific(issue: Issue, prefix: readonly PropertyKey[] = []): { issue: Issue; path: readonly PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union') return { issue, path };
  const inner = issue.errors.flat().map((candidate) => mostSpecific(candidate, path));
  return inner.reduce((best, candidate) => (candidate.path.length > best.path.length ? candidate : best), { issue, path });
}

function refusalFor(error: z.ZodError): AppError {
  const first = error.issues[0];
  if (!first) return new AppError(commonMessages.invalidParameter, { status: badInput });
  const { issue, path } = mostSpecific(first);
  if (path.length === 0) return new AppError(commonMessages.invalidParameter, { status: badInput });
  const field = fieldName(path);
  const isNameRule = issue.code === 'custom' && issue.params?.rule === controlCharacterRule.rule;
  return fieldRefusal(field, isNameRule ? inputMessages.controlCharacters : inputMessages.invalidField);
}

/**
 * Where the first U+0000 sits in a parsed value (a key or a string), or undefined. PostgreSQL cannot
 * store it in text at all, so it is refused in every field on every engine. Walked without recursion,
 * so a deeply nested body cannot exhaust the stack.
 */
export function pathOfNul(value: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: readonly string[] }> = [{ value, path: [] }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return fieldName(item.path) || 'body';
    } else if (typeof item.value === 'object' && item.value !== null) {
      for (const [key, child] of Object.entries(item.value)) {
        if (key.includes('\u0000')) return fieldName(item.path) || 'body';
        pending.push({ value: child, path: [...item.path, key] });
      }
    }
  }
  return undefined;
}

/**
 * The one parser of request bodies, route parameters and queries: a value the schema refuses, or one
 * carrying U+0000, is a 400 that names the field ("Invalid parameter: quota"), and nothing runs.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw refusalFor(parsed.error);
  const nulAt = pathOfNul(parsed.data);
  if (nulAt !== undefined) throw fieldRefusal(nulAt, inputMessages.nulCharacter);
  return parsed.data;
}
