/**
 * The request fields new-api removes before a request leaves for a channel, each unless the
 * channel's `settings` allows it: they cost money (`service_tier`), move data (`inference_geo`,
 * `store`), change the model's mode (`speed`) or report users (`safety_identifier`). `store` is the
 * exception: it goes through unless `disable_store` is on (Codex needs it).
 */
export interface FieldAllowances {
  readonly serviceTier: boolean;
  readonly inferenceGeo: boolean;
  readonly speed: boolean;
  readonly safetyIdentifier: boolean;
  readonly includeObfuscation: boolean;
  readonly disableStore: boolean;
}

export const defaultAllowances: FieldAllowances = {
  serviceTier: false,
  inferenceGeo: false,
  speed: false,
  safetyIdentifier: false,
  includeObfuscation: false,
  disableStore: false,
};

type Body = Record<string, unknown>;

/** Each channel's list, made once: the probe runs on every request. */
const removedFieldLists = new WeakMap<FieldAllowances, readonly string[]>();

/** The top-level fields removed under these settings. */
function removedFields(allowed: FieldAllowances): readonly string[] {
  const known = removedFieldLists.get(allowed);
  if (known) return known;
  const fields: string[] = [];
  if (!allowed.serviceTier) fields.push('service_tier');
  if (!allowed.inferenceGeo) fields.push('inference_geo');
  if (!allowed.speed) fields.push('speed');
  if (!allowed.safetyIdentifier) fields.push('safety_identifier');
  if (allowed.disableStore) fields.push('store');
  removedFieldLists.set(allowed, fields);
  return fields;
}

const streamOptionsOf = (body: Body): Body | undefined =>
  typeof body.stream_options === 'object' && body.stream_options !== null && !Array.isArray(body.stream_options) ? (body.stream_options as Body) : undefined;

/** True when the body carries a field these settings remove: a few key lookups, so most requests skip the rest. */
export function hasDisabledField(body: Body | undefined, allowed: FieldAllowances): boolean {
  if (!body) return false;
  for (const field of removedFields(allowed)) if (Object.hasOwn(body, field)) return true;
  if (allowed.includeObfuscation) return false;
  const streamOptions = streamOptionsOf(body);
  return streamOptions !== undefined && Object.hasOwn(streamOptions, 'include_obfuscation');
}

/** Removes the fields from an upstream body (edited in place); true when one was there. */
export function removeDisabledFields(body: Body, allowed: FieldAllowances): boolean {
  let changed = false;
  for (const field of removedFields(allowed)) {
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
