/**
 * A stored body for reading: JSON indented, anything else (a body cut at its size limit, raw
 * stream text) as it is.
 */
export function prettyBody(body: string): string {
  const first = body.trimStart()[0];
  if (first !== '{' && first !== '[') return body;
  try {
    return JSON.stringify(JSON.parse(body) as unknown, null, 2);
  } catch {
    return body;
  }
}
