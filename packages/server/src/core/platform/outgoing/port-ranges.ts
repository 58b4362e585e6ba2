/** new-api's allowed_ports: single ports and ranges ("80", "8000-9000"); an empty list allows every port. */
export interface PortRanges {
  allows(port: number): boolean;
}

function parseEntry(entry: string): [number, number] | undefined {
  const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(entry);
  if (!match) return undefined;
  const low = Number(match[1]);
  const high = match[2] === undefined ? low : Number(match[2]);
  if (low < 1 || high > 65535 || low > high) return undefined;
  return [low, high];
}

export function isPortEntry(entry: string): boolean {
  return parseEntry(entry) !== undefined;
}

/**
 * Entries that do not parse are skipped; when none parse the list allows nothing rather than
 * everything (a broken setting must not open every port).
 */
export function portRanges(entries: readonly string[]): PortRanges {
  const ranges = entries.map(parseEntry).filter((range) => range !== undefined);
  if (entries.length === 0) return { allows: () => true };
  return { allows: (port) => ranges.some(([low, high]) => port >= low && port <= high) };
}
