/**
 * How the relay chooses among the channels of one priority tier (`ChannelRoutingStrategy` option):
 * `weighted` (random by weight, new-api's behaviour), `least-busy` (fewest requests in flight),
 * `lowest-latency` (fastest first byte lately, with exploration) and `usage-aware` (stay under the
 * channel's and its keys' RPM/TPM). Priorities, weights and the circuit breaker apply to all four.
 */
export const routingStrategies = ['weighted', 'least-busy', 'lowest-latency', 'usage-aware'] as const;
export type RoutingStrategy = (typeof routingStrategies)[number];

/** The option's value: `{"default": "weighted", "groups": {"vip": "least-busy"}}`. */
export interface ChannelRoutingSetting {
  readonly default: RoutingStrategy;
  readonly groups: Readonly<Record<string, RoutingStrategy>>;
}

export const defaultChannelRouting: ChannelRoutingSetting = { default: 'weighted', groups: {} };

export const isRoutingStrategy = (value: unknown): value is RoutingStrategy =>
  typeof value === 'string' && (routingStrategies as readonly string[]).includes(value);

/**
 * Reads the option's JSON value; a description of the first fault when it is not an object with an
 * optional `default` strategy and an optional `groups` object of strategies (no other keys).
 */
export function parseChannelRouting(value: unknown): { ok: true; setting: ChannelRoutingSetting } | { ok: false; fault: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, fault: 'not an object' };
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (key !== 'default' && key !== 'groups') return { ok: false, fault: `unknown key "${key}"` };
  const fallback = record.default ?? 'weighted';
  if (!isRoutingStrategy(fallback)) return { ok: false, fault: `default: "${String(fallback)}" is not a strategy` };
  const groupsValue = record.groups ?? {};
  if (typeof groupsValue !== 'object' || groupsValue === null || Array.isArray(groupsValue)) return { ok: false, fault: 'groups: not an object' };
  const groups: Record<string, RoutingStrategy> = {};
  for (const [group, strategy] of Object.entries(groupsValue)) {
    if (!group.trim()) return { ok: false, fault: 'groups: empty group name' };
    if (!isRoutingStrategy(strategy)) return { ok: false, fault: `groups.${group}: "${String(strategy)}" is not a strategy` };
    groups[group] = strategy;
  }
  return { ok: true, setting: { default: fallback, groups } };
}
