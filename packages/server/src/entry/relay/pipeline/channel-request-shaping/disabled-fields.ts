/**
 * The request fields new-api removes before a request leaves for a channel, each unless the
 * channel's `settings` allows it: they cost money (`service_tier`), move data (`inference_geo`,
 * `store`), change the model's mode (`speed`) or report users (`safety_identifier`). `store` is the
 * exception: it goes through unless `disable_store` is on (Codex needs it).
 */
export interface AllowanceFlags {
  readonly serviceTier: boolean;
  readonly inferenceGeo: boolean;
  readonly speed: boolean;
  readonly safetyIdentifier: boolean;
  readonly includeObfuscation: boolean;
  readonly disableStore: boolean;
}

/** A channel's flags with the top-level fields they remove, listed once when the channel is loaded (the probe runs on every request). */
export interface FieldAllowances extends AllowanceFlags {
  readonly removedFields: readonly string[];
}

/** The allowances of a channel's flags. */
export function fieldAllowances(flags: AllowanceFlags): FieldAllowances {
  const removedFields: string[] = [];
  if (!flags.serviceTier) removedFields.push('service_tier');
  if (!flags.inferenceGeo) removedFields.push('inference_geo');
  if (!flags.speed) removedFields.push('speed');
  if (!flags.safetyIdentifier) removedFields.push('safety_identifier');
  if (flags.disableStore) removedFields.push('store');
  return { ...flags, removedFields };
}

export const defaultAllowances: FieldAllowances = fieldAllowances({
  serviceTier: false,
  inferenceGeo: false,
  speed: false,
  safetyIdentifier: false,
  includeObfuscation: false,
  disableStore: false,
});

type Body = Record<string, unknown>;

const streamOptionsOf = (body: Body): Body | undefined =>
  typeof body.stream_options === 'object' && body.stream_options !== null && !Array.isArray(body.stream_options) ? (body.stream_options as Body) : undefined;

/** True when the body carries a field these settings remove: a few key lookups, so most requests skip the rest. */
export function hasDisabledField(body: Body | undefined, allowed: FieldAllowances): boolean {
  if (!body) return false;
  for (const field of allowed.removedFields) if (Object.hasOwn(body, field)) return true;
  if (allowed.includeObfuscation) return false;
  const streamOptions = streamOptionsOf(body);
  return streamOptions !== undefined && Object.hasOwn(streamOptions, 'include_obfuscation');
}

/** Removes the fields from an upstream body (edited in place); true when one was there. */
export function removeDisabledFields(body: Body, allowed: FieldAllowances): boolean {
  let changed = false;
  for (const field of allowed.removedFields) {
    if (!Object.hasOwn(body, field)) continue;
    delete body[field];
    changed = true;
  }
  const streamOptions = streamOptionsOf(body);
  if (!allowed.includeObfuscation && streamOptions && Object.hasOwn(streamOptions, 'include_obfuscation')) {
    const { include_obfuscation: _removed, ...rest } = streamOptions;
    if (Object.keys(rest).length > 0) body.stream_options = rest;
    else delete body.stream_options;
    changed = true;
  }
  return changed;
}
