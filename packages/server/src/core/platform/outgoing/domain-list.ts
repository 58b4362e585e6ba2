/** A host name as compared with the lists: lower case, without the trailing dot of a fully qualified name. */
export function normalHost(host: string): string {
  return host.toLowerCase().replace(/\.+$/, '');
}

/** `example.com` or `*.example.com` (the wildcard also matches example.com itself, as in new-api). */
export function isDomainEntry(entry: string): boolean {
  return /^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.?$/i.test(entry.trim());
}

export function domainListed(host: string, entries: readonly string[]): boolean {
  const name = normalHost(host);
  return entries.some((raw) => {
    const entry = normalHost(raw.trim());
    if (entry === '') return false;
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(2);
      return name === suffix || name.endsWith(`.${suffix}`);
    }
    return name === entry;
  });
}
