import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process trees (a gateway's primary and its workers, a browser-suite server) that the tests of
 * this process started, so none outlives its test file: a test that times out never reaches its
 * `finally`, and its gateway kept running (one tree was found 35 minutes later). Each tree runs in a
 * process group of its own (spawned `detached`), and is killed whole (SIGKILL to the group):
 * - at the end of every test file (`owned-process-trees.setup.ts`, a setup file of both suites);
 * - when this process exits, and when it dies of a signal or is killed: a small shell (the reaper) reads
 *   the groups from a pipe and kills those left when the pipe closes, however this process ended.
 * A group is forgotten once it has no process left, so a number the system hands out again is never killed.
 * Production `main` is untouched: an operator may start it from a shell that then exits.
 */
const ownedGroups = new Set<number>();
let reaper: ChildProcess | undefined;

/** What a tree this harness owns is spawned with: a process group of its own, led by the spawned process. */
export const ownedTreeSpawnOptions = { detached: true } as const;

/** Registers `child`, spawned with `ownedTreeSpawnOptions`, and its descendants as this process's to kill. */
export function ownProcessTree(child: ChildProcess): void {
  const group = child.pid;
  if (group === undefined) return;
  ownedGroups.add(group);
  tellReaper(`+${group}`);
  // A primary killed alone may leave its workers: the group is kept until no member is left.
  child.once('exit', () => {
    if (!groupHasMembers(group)) forget(group);
  });
}

/** Kills every owned tree (what a test file or this process leaves at its end). */
export function killOwnedProcessTrees(): void {
  for (const group of ownedGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
    forget(group);
  }
}

function forget(group: number): void {
  if (ownedGroups.delete(group)) tellReaper(`-${group}`);
}

/** Whether any process (a zombie waiting for its parent counts as gone) is still in `group`. */
function groupHasMembers(group: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , processGroup] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(processGroup) === group && state !== 'Z') return true;
    } catch {
      // gone between the listing and the read
    }
  }
  return false;
}

/** Kills the groups it was told of and not told to forget once its input ends (this process is gone). */
const reaperScript = `
groups=' '
while read -r line; do
  case $line in
    +*) groups="$groups\${line#+} " ;;
    -*) groups=$(printf '%s' "$groups" | sed "s/ \${line#-} / /") ;;
  esac
done
for group in $groups; do kill -KILL "-$group" 2>/dev/null; done
`;

function tellReaper(line: string): void {
  if (!reaper) {
    // Its own group too: a Ctrl-C to the terminal's group must not end the reaper before it reads the end.
    reaper = spawn('/bin/sh', ['-c', reaperScript], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    reaper.unref();
    (reaper.stdin as unknown as { unref?(): void }).unref?.();
    reaper.stdin?.on('error', () => undefined);
    process.once('exit', killOwnedProcessTrees);
  }
  reaper.stdin?.write(`${line}\n`);
}
