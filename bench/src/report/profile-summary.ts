import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  where: string;
  /** Share of busy (non-idle) samples spent in this function itself. */
  selfPercent: number;
}

export interface ProfileSummary {
  file: string;
  busySamples: number;
  byArea: ProfileEntry[];
  topFunctions: ProfileEntry[];
  /** Switchboard's own functions by time spent in them and everything they call (busy time). */
  switchboardInclusive: ProfileEntry[];
  /** Busy time by whose code asked for it (see `ownerOf`), the socket writes apart. */
  byOwner: ProfileEntry[];
}

/**
 * Whose code a frame is, for "where does a request's CPU go against the floor": the gateway's own,
 * Fastify's (with its router and plugins), undici's, the process log's, and module loading (start-up,
 * which a profile of a short run includes). Node's own frames (HTTP parsing, streams) are nobody's:
 * a sample goes to the nearest owned frame above it, so Node's work on a package's behalf is that
 * package's.
 */
export function ownerOf(url: string): string | undefined {
  if (url.includes('/packages/server/src/')) return 'Switchboard';
  if (/node_modules\/(fastify|@fastify\/|find-my-way|avvio|light-my-request)/.test(url)) return 'Fastify';
  if (url.includes('node_modules/undici/')) return 'undici';
  if (/node_modules\/(pino|sonic-boom)/.test(url)) return 'process log (pino)';
  if (url.includes('internal/modules/')) return 'start-up (module loading)';
  return undefined;
}

/** Frames that write answers to sockets: the same bytes a bare pass-through writes, reported apart. */
const socketWrites = new Set(['writev', 'writevGeneric', 'Socket._writeGeneric', 'Socket._writev', 'Writable.uncork', 'connectionCorkNT']);

/** Where a function lives, in the groups that matter when reading a gateway's profile. */
function areaOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return 'V8/native (program)';
  if (url.includes('/packages/server/src/'))
    return `switchboard ${
      url
        .slice(url.indexOf('/packages/server/src/') + 21)
        .split('/')
        .slice(0, -1)
        .join('/') || '.'
    }`;
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModule) return nodeModule[1] as string;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/')[0]}`;
  return url ? 'other' : 'native';
}

function shortUrl(url: string): string {
  const server = url.indexOf('/packages/server/src/');
  if (server >= 0) return url.slice(server + 1);
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 13);
  return url.replace(/^file:\/\//, '');
}

/** Self time by function and by area from a V8 .cpuprofile (what `node --cpu-prof` writes), idle excluded. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index += 1) {
    const id = profile.samples[index] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  let busy = 0;
  const functions = new Map<string, { name: string; where: string; time: number }>();
  const areas = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    busy += time;
    const name = functionName || '(anonymous)';
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = functions.get(key) ?? { name, where, time: 0 };
    entry.time += time;
    functions.set(key, entry);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + time);
  }
  const inclusive = inclusiveTimes(profile, byId, self);
  const owners = ownerTimes(profile, byId, self);
  const percent = (time: number) => Number(((100 * time) / Math.max(1, busy)).toFixed(1));
  return {
    file,
    busySamples: profile.samples.length,
    byArea: [...areas].sort((a, b) => b[1] - a[1]).map(([name, time]) => ({ name, where: '', selfPercent: percent(time) })),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.time - a.time)
      .slice(0, top)
      .map((entry) => ({ name: entry.name, where: entry.where, selfPercent: percent(entry.time) })),
    switchboardInclusive: [...inclusive.values()]
      .sort((a, b) => b.time - a.time)
      .slice(0, top)
      .map((entry) => ({ name: entry.name, where: entry.where, selfPercent: percent(entry.time) })),
    byOwner: [...owners].sort((a, b) => b[1] - a[1]).map(([name, time]) => ({ name, where: '', selfPercent: percent(time) })),
  };
}

/** Busy time by owner: each sample to the nearest owned frame above it; GC and V8's own apart; socket writes apart. */
function ownerTimes(profile: CpuProfile, byId: Map<number, ProfileNode>, self: Map<number, number>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  for (const [id, time] of self) {
    const leaf = byId.get(id)?.callFrame.functionName;
    if (leaf === undefined || leaf === '(idle)') continue;
    let owner = leaf === '(garbage collector)' ? 'GC' : leaf === '(program)' ? 'V8 (program)' : undefined;
    let writing = false;
    for (let at: number | undefined = id; owner === undefined && at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      writing ||= socketWrites.has(frame.functionName);
      owner = ownerOf(frame.url);
    }
    const key = writing ? 'socket writes (answers)' : (owner ?? 'Node (no package above)');
    totals.set(key, (totals.get(key) ?? 0) + time);
  }
  return totals;
}

/** Time under each Switchboard function (counted once per stack even when it recurses). */
function inclusiveTimes(
  profile: CpuProfile,
  byId: Map<number, ProfileNode>,
  self: Map<number, number>,
): Map<string, { name: string; where: string; time: number }> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, { name: string; where: string; time: number }>();
  for (const [id, time] of self) {
    if (byId.get(id)?.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame || !frame.url.includes('/packages/server/src/')) continue;
      const where = `${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
      const key = `${frame.functionName}@${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = totals.get(key) ?? { name: frame.functionName || '(anonymous)', where, time: 0 };
      entry.time += time;
      totals.set(key, entry);
    }
  }
  return totals;
}
