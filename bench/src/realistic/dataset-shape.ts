import { createHash } from 'node:crypto';
import { seededRandom, ZipfPicker } from './seeded-random.ts';

/**
 * The realistic data set of issue 41 at scale 1: a deployment the size of the ones new-api users run.
 * Other scales multiply the rows (users, tokens, channels, logs); models, groups and the traffic's
 * active set keep their size as far as the rows allow, so a reduced run still routes like a big one.
 */
export const fullScale = {
  users: 50_000,
  tokens: 100_000,
  channels: 2_000,
  models: 500,
  groups: 20,
  logs: 10_000_000,
  /** Tokens and models the bench traffic is spread over (Zipf). */
  activeTokens: 5_000,
  activeModels: 100,
} as const;

/** Zipf exponent of the traffic and of the stored logs (issue 41: s ≈ 1.1). */
export const zipfExponent = 1.1;

/** Fixed seed: the same rows on every machine and in every run. */
export const dataSetSeed = 41;

export type DataSetShape = { -readonly [Key in keyof typeof fullScale]: number };

export function dataSetShape(scale: number): DataSetShape {
  if (!(scale > 0 && scale <= 1)) throw new Error(`the realistic scale must be above 0 and at most 1, got ${scale}`);
  const users = Math.max(10, Math.round(fullScale.users * scale));
  const tokens = Math.max(users, Math.round(fullScale.tokens * scale));
  return {
    users,
    tokens,
    // At least one catch-all channel per group (see channelRows), whatever the scale.
    channels: Math.max(fullScale.groups * 2, Math.round(fullScale.channels * scale)),
    models: fullScale.models,
    groups: fullScale.groups,
    logs: Math.max(1000, Math.round(fullScale.logs * scale)),
    activeTokens: Math.min(fullScale.activeTokens, users),
    activeModels: fullScale.activeModels,
  };
}

export const groupName = (index: number): string => (index === 0 ? 'default' : `group-${String(index).padStart(2, '0')}`);
export const modelName = (index: number): string => `model-${String(index).padStart(3, '0')}`;
export const userName = (index: number): string => `user-${String(index + 1).padStart(6, '0')}`;
export const tokenName = (index: number): string => `token-${String(index + 1).padStart(6, '0')}`;

/** Ids are 1-based positions, so logs and tokens can reference rows without reading them back. */
export const userId = (index: number): number => index + 1;
export const tokenId = (index: number): number => index + 1;
export const channelId = (index: number): number => index + 1;

/** A token's 48-character key, derived from its position so the load generator knows it without the database. */
export function tokenKey(index: number): string {
  return `rt${String(index).padStart(8, '0')}${createHash('sha256').update(`switchboard-bench-token-${index}`).digest('hex')}`.slice(0, 48);
}

/**
 * The user who owns a token: the first `users` tokens belong one each to users 0, 1, 2… (so the
 * active tokens, the first ones, belong to distinct users); the rest go mostly to the heavy users.
 */
export function tokenOwner(index: number, shape: DataSetShape): number {
  if (index < shape.users) return index;
  const draw = seededRandom(dataSetSeed * 7919 + index)();
  return Math.floor(draw * draw * shape.users);
}

/** A user's group: most are in `default`, the rest spread over the other groups. */
export function userGroup(index: number, shape: DataSetShape): string {
  return index % 5 < 3 ? groupName(0) : groupName(1 + (index % (shape.groups - 1)));
}

export interface ChannelShape {
  index: number;
  groups: string[];
  models: string[];
  keys: string[];
  enabled: boolean;
  priority: number;
  weight: number;
  tag: string | null;
}

/**
 * The channels: the first `2 × groups` serve the traffic's active models in one group each (two per
 * group, so the chooser has a choice there); the rest serve a window of 20–60 models in `default`
 * and one or two other groups, every eighth holds several keys, one in 33 is disabled.
 */
export function channelShape(index: number, shape: DataSetShape): ChannelShape {
  const catchAll = index < shape.groups * 2;
  const keyCount = index % 8 === 7 ? 2 + (index % 7) : 1;
  const keys = Array.from({ length: keyCount }, (_, key) => `upstream-key-${index + 1}-${key + 1}`);
  if (catchAll) {
    return {
      index,
      groups: [groupName(index % shape.groups)],
      models: Array.from({ length: shape.activeModels }, (_, model) => modelName(model)),
      keys,
      enabled: true,
      priority: 0,
      weight: 10,
      tag: null,
    };
  }
  const first = (index * 37) % shape.models;
  const length = 20 + (index % 41);
  const groups = [groupName(0), groupName(1 + (index % (shape.groups - 1)))];
  if (index % 3 === 0) groups.push(groupName(1 + ((index * 7) % (shape.groups - 1))));
  return {
    index,
    groups: [...new Set(groups)],
    models: Array.from({ length }, (_, offset) => modelName((first + offset) % shape.models)),
    keys,
    enabled: index % 33 !== 0,
    priority: index % 5 === 0 ? 10 : 0,
    weight: index % 10,
    tag: index % 4 === 0 ? `tag-${index % 12}` : null,
  };
}

/** Abilities as new-api builds them: one row per group × model × channel, enabled when the channel is. */
export function abilityRows(
  channel: ChannelShape,
): Array<{ group: string; model: string; channel_id: number; enabled: number; priority: number; weight: number; tag: string | null }> {
  return channel.groups.flatMap((group) =>
    channel.models.map((model) => ({
      group,
      model,
      channel_id: channelId(channel.index),
      enabled: channel.enabled ? 1 : 0,
      priority: channel.priority,
      weight: channel.weight,
      tag: channel.tag,
    })),
  );
}

/** Prices: every model has a ratio (0.1–15) and a completion ratio (1–4); groups have ratios. */
export function priceOptions(shape: DataSetShape): {
  ModelRatio: Record<string, number>;
  CompletionRatio: Record<string, number>;
  GroupRatio: Record<string, number>;
} {
  const random = seededRandom(dataSetSeed + 1);
  const ModelRatio: Record<string, number> = {};
  const CompletionRatio: Record<string, number> = {};
  for (let model = 0; model < shape.models; model += 1) {
    ModelRatio[modelName(model)] = Math.round((0.1 + random() * 14.9) * 100) / 100;
    CompletionRatio[modelName(model)] = [1, 2, 3, 4][Math.floor(random() * 4)] ?? 1;
  }
  const GroupRatio: Record<string, number> = {};
  for (let group = 0; group < shape.groups; group += 1) GroupRatio[groupName(group)] = group === 0 ? 1 : ([0.5, 0.8, 1, 1.2, 1.5, 2][group % 6] ?? 1);
  return { ModelRatio, CompletionRatio, GroupRatio };
}

/** Log row columns in insert order (logs.id is generated). */
export const logColumns = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'token_id',
  'group',
  'ip',
  'request_id',
  'other',
] as const;

/**
 * Writes the log rows, oldest first (ids grow with time as in real use), into `sink` as flat value
 * arrays of `logColumns.length` per row, `batchRows` rows at a time. Tokens and models are Zipf
 * distributed, each log's user is its token's owner, its channel one that serves the model.
 */
export async function generateLogs(
  shape: DataSetShape,
  now: number,
  batchRows: number,
  sink: (values: unknown[], rows: number) => Promise<void> | void,
): Promise<void> {
  const random = seededRandom(dataSetSeed + 2);
  const tokens = new ZipfPicker(shape.tokens, zipfExponent, random);
  const models = new ZipfPicker(shape.models, zipfExponent, random);
  const prices = priceOptions(shape);
  const servers = channelsByGroupAndModel(shape);
  const span = 30 * 86_400;
  const first = now - span;
  let values: unknown[] = [];
  let rows = 0;
  for (let row = 0; row < shape.logs; row += 1) {
    const token = tokens.pick();
    const owner = tokenOwner(token, shape);
    const group = userGroup(owner, shape);
    // Only models some enabled channel serves have logs (at small scales the tail may have none).
    let model = modelName(models.pick());
    while (!servers.has(model)) model = modelName(models.pick());
    const candidates = servers.get(`${group}\u0000${model}`) ?? servers.get(model) ?? [];
    const channel = candidates[Math.floor(random() * candidates.length)] ?? 1;
    const draw = random();
    const type = draw < 0.92 ? 2 : draw < 0.96 ? 5 : draw < 0.98 ? 4 : draw < 0.99 ? 3 : 1;
    const prompt = type === 2 ? 20 + Math.floor(random() * random() * 4000) : 0;
    const completion = type === 2 ? 5 + Math.floor(random() * random() * 1500) : 0;
    const modelRatio = prices.ModelRatio[model] ?? 1;
    const completionRatio = prices.CompletionRatio[model] ?? 1;
    const groupRatio = prices.GroupRatio[group] ?? 1;
    const quota = type === 2 ? Math.round((prompt + completion * completionRatio) * modelRatio * groupRatio) : type === 1 ? 500_000 : 0;
    values.push(
      userId(owner),
      first + Math.floor((row * span) / shape.logs),
      type,
      type === 2 ? '' : type === 5 ? 'upstream error: status 429' : 'system note',
      userName(owner),
      tokenName(token),
      model,
      quota,
      prompt,
      completion,
      1 + Math.floor(random() * 20),
      random() < 0.6 ? 1 : 0,
      channel,
      tokenId(token),
      group,
      '',
      `req-${row.toString(36)}`,
      type === 2 ? `{"model_ratio":${modelRatio},"group_ratio":${groupRatio},"completion_ratio":${completionRatio}}` : '',
    );
    rows += 1;
    if (rows === batchRows) {
      await sink(values, rows);
      values = [];
      rows = 0;
    }
  }
  if (rows > 0) await sink(values, rows);
}

/** Enabled channel ids per "group\0model", and per model alone as the fallback of an unserved group. */
function channelsByGroupAndModel(shape: DataSetShape): Map<string, number[]> {
  const servers = new Map<string, number[]>();
  const add = (key: string, id: number) => {
    const list = servers.get(key);
    if (list) list.push(id);
    else servers.set(key, [id]);
  };
  for (let index = 0; index < shape.channels; index += 1) {
    const channel = channelShape(index, shape);
    if (!channel.enabled) continue;
    for (const model of channel.models) {
      add(model, channelId(index));
      for (const group of channel.groups) add(`${group}\u0000${model}`, channelId(index));
    }
  }
  return servers;
}
