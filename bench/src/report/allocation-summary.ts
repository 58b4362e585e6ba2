import { ownerOf } from './profile-summary.ts';

/** A node of V8's sampling heap profile (`HeapProfiler.stopSampling`): bytes allocated by a function, called from its parent. */
export interface HeapProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapProfileNode[];
}

export interface AllocationEntry {
  readonly name: string;
  readonly where: string;
  readonly bytesPerRequest: number;
}

export interface AllocationSummary {
  readonly bytesPerRequest: number;
  /** By whose code asked for the bytes: the nearest owned frame above the allocating one (as `byOwner` for CPU). */
  readonly byOwner: readonly AllocationEntry[];
  /** Switchboard's own functions by the bytes they allocate themselves (Node's frames under them count for them). */
  readonly switchboardFunctions: readonly AllocationEntry[];
}

function shortWhere(url: string, lineNumber: number): string {
  const server = url.indexOf('/packages/server/src/');
  return `${server >= 0 ? url.slice(server + 1) : url}:${lineNumber + 1}`;
}

/**
 * Bytes allocated per request, from a sampling heap profile taken over `requests` requests with
 * collected objects kept in it (`includeObjectsCollectedByMinorGC/MajorGC`): what the young
 * generation has to hold and the scavenger to sweep for each request. Unlike CPU time on a shared
 * machine, it moves only when the code does.
 */
export function summariseAllocations(head: HeapProfileNode, requests: number, top = 20): AllocationSummary {
  const owners = new Map<string, number>();
  const functions = new Map<string, AllocationEntry & { bytes: number }>();
  let total = 0;
  const walk = (node: HeapProfileNode, owner: string, switchboardFrame: HeapProfileNode | undefined): void => {
    const own = ownerOf(node.callFrame.url);
    const nodeOwner = own ?? owner;
    const frame = own === 'Switchboard' ? node : own === undefined ? switchboardFrame : undefined;
    if (node.selfSize > 0) {
      total += node.selfSize;
      owners.set(nodeOwner, (owners.get(nodeOwner) ?? 0) + node.selfSize);
      if (frame) {
        const where = shortWhere(frame.callFrame.url, frame.callFrame.lineNumber);
        const name = frame.callFrame.functionName || '(anonymous)';
        const key = `${name}@${where}`;
        const entry = functions.get(key) ?? { name, where, bytesPerRequest: 0, bytes: 0 };
        entry.bytes += node.selfSize;
        functions.set(key, entry);
      }
    }
    for (const child of node.children) walk(child, nodeOwner, frame);
  };
  walk(head, 'Node (no package above)', undefined);
  const perRequest = (bytes: number) => Math.round(bytes / Math.max(1, requests));
  return {
    bytesPerRequest: perRequest(total),
    byOwner: [...owners].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, where: '', bytesPerRequest: perRequest(bytes) })),
    switchboardFunctions: [...functions.values()]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top)
      .map(({ name, where, bytes }) => ({ name, where, bytesPerRequest: perRequest(bytes) })),
  };
}
