import { z } from 'zod';

/**
 * Building blocks for the numeric and name fields of every console request. A number is taken only
 * when it is exactly what it looks like: a JSON number, or (where text is all a channel can carry:
 * query strings, route parameters, option values) plain decimal digits. `null`, booleans, arrays,
 * blank text, hex, exponents and anything beyond ±Number.MAX_SAFE_INTEGER are refused, so no
 * stray value is ever coerced into a balance, and every accepted number is stored exactly.
 */

/** A JSON number that is a whole number within ±Number.MAX_SAFE_INTEGER. */
export const wholeNumber = z.int();

/** A JSON number within ±Number.MAX_SAFE_INTEGER; fractions allowed. */
export const finiteNumber = z.number().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** A row id as a JSON body carries it. */
export const idNumber = z.int().positive();

/** Digits with an optional minus: no blanks, plus signs, hex, exponents or fractions. */
const wholeNumberPattern = /^-?\d+$/;
/** The same with an optional fraction (`0.5`, `7.3`). */
const decimalPattern = /^-?\d+(\.\d+)?$/;

/** A whole number written as text (query strings, route parameters, option values). */
export const wholeNumberText = z.string().regex(wholeNumberPattern).transform(Number).pipe(wholeNumber);

/** A number written as decimal text, fraction allowed. */
export const decimalText = z.string().regex(decimalPattern).transform(Number).pipe(finiteNumber);

/** A row id written as text (`/api/token/:id`). */
export const idText = wholeNumberText.pipe(idNumber);

/** The parameters of the issue the name rule raises; the input parser turns it into its own message. */
export const controlCharacterRule = { rule: 'no-control-characters' } as const;

/** U+0000–U+001F and U+007F: never part of a name (and U+0000 cannot even be stored by PostgreSQL). */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A name (token, channel, user, display, group, tag, redemption): any text without control characters. */
export const nameText = z.string().refine((text) => !hasControlCharacter(text), { params: controlCharacterRule });
