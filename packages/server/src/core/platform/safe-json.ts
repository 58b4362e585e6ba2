export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

/** The one JSON.parse of the code base: never throws, so callers must handle bad input. */
export function safeParseJson(text: string): JsonResult {
  try {
    // eslint-disable-next-line no-restricted-syntax -- this is the safe wrapper
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
