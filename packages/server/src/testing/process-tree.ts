import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command, which may hold spaces and parentheses. */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The processes whose parent is `pid` (the workers of a primary), from /proc. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === pid) children.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return children;
}

/** Running (not ended, nor a zombie waiting for its parent to read its exit). */
export function isRunning(pid: number): boolean {
  try {
    return statFields(pid)[0] !== 'Z';
  } catch {
    return false;
  }
}
