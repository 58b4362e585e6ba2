/** new-api keeps tags as one comma-separated text; the console edits and shows them as a list. */
export function tagList(tags: string): string[] {
  return tags
    .split(/[,，]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** The endpoint types a row names in its own `endpoints` JSON ('' or unreadable: none). */
export function endpointTypesOf(endpoints: string): string[] {
  if (endpoints.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(endpoints);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  } catch {
    return [];
  }
}
