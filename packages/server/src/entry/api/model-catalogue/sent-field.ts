/**
 * A field the caller sent for an edit. new-api's console sends `null` as well as leaving a field out
 * for "unchanged", so both keep the stored value.
 */
export function sent<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}
