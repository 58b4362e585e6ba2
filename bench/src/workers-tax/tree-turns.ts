import { medianBy } from '../measure/stats.ts';

/** One measured turn of a process tree: the requests answered and each process's CPU over it. */
export interface TreeTurn {
  completed: number;
  failed: number;
  /** Wall time of the turn. */
  seconds: number;
  /** Each process's CPU over the turn and, by thread name, its threads' (see threadCpuMicros). */
  processes: Array<{ role: string; cpuMicros: number; switches?: number; threads?: Record<string, number> }>;
}

/** The tree's CPU per answered request over a turn (every process added up). */
export function treeMicrosPerRequest(turn: TreeTurn): number {
  const total = turn.processes.reduce((sum, each) => sum + each.cpuMicros, 0);
  return turn.completed > 0 ? total / turn.completed : Number.NaN;
}

/** The turn whose tree CPU per request is the median: the other tenants of the machine move single turns. */
export function medianTurn(turns: readonly TreeTurn[]): TreeTurn {
  const median = medianBy(turns, treeMicrosPerRequest);
  if (!median) throw new Error('no turn answered a request');
  return median;
}

/** Each process's CPU per request in a turn, then the tree's; `failed` carries the turn's failed requests. */
export function perProcessRows(turn: TreeTurn): { failed: number; lines: Array<{ role: string; microsPerRequest: number; switchesPerRequest?: number }> } {
  const perRequest = (value: number | undefined) => (value === undefined ? {} : { switchesPerRequest: value / turn.completed });
  const lines = turn.processes.map((each) => ({ role: each.role, microsPerRequest: each.cpuMicros / turn.completed, ...perRequest(each.switches) }));
  if (turn.processes.length > 1) {
    const switches = turn.processes.every((each) => each.switches !== undefined) ? turn.processes.reduce((sum, each) => sum + each.switches!, 0) : undefined;
    lines.push({ role: 'tree', microsPerRequest: treeMicrosPerRequest(turn), ...perRequest(switches) });
  }
  return { failed: turn.failed, lines };
}
