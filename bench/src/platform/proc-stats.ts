import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Linux reports process CPU time in clock ticks; 100 per second on every mainstream kernel build. */
const ticksPerSecond = 100;

/**
 * CPU time (user + system) a process has used so far, in microseconds, read from /proc/<pid>/stat.
 * This is the process's own accounting, so it holds on a noisy machine where wall-clock rates do not.
 */
export function cpuMicros(pid: number): number {
  return cpuMicrosOf(`/proc/${pid}/stat`);
}

/** utime + stime of a /proc stat file (a process's or one thread's), in microseconds. */
function cpuMicrosOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  // The command name (field 2) may contain spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1_000_000) / ticksPerSecond;
}

/**
 * CPU time of each thread of a process by thread name (`/proc/<pid>/task/<tid>/comm`: the main thread
 * carries the program's name, Node's others `libuv-worker`, `V8 DefaultWorke`, a writer `sqlite-writer`),
 * in microseconds; threads of one name are added up. Threads that ended are not counted (their time
 * stays in the process's own figure).
 */
export function threadCpuMicros(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const label = tid === String(pid) ? 'main thread' : name;
      byName.set(label, (byName.get(label) ?? 0) + cpuMicrosOf(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // ended between the listing and the read
    }
  }
  return byName;
}

/**
 * Times the process's main thread was switched off the CPU (voluntary: waiting for something; and
 * preempted), from /proc/<pid>/status. Each switch between processes costs their caches: on a shared
 * core more processes mean more of them per request.
 */
export function contextSwitches(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const count = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches');
}

/**
 * The process and every process below it: a gateway with WORKERS > 1 is a primary and its workers,
 * and its cost is theirs together. A single process is itself alone.
 */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended between the listing and the read
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

/** A figure of a process added up over it and its descendants (one that ends meanwhile counts nothing). */
function sumOverTree(pid: number, read: (member: number) => number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      total += read(member);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** CPU time of a process and all its descendants (see processTree), in microseconds. */
export const treeCpuMicros = (pid: number): number => sumOverTree(pid, cpuMicros);

/** Resident set size of a process and all its descendants, in bytes. */
export const treeRssBytes = (pid: number): number => sumOverTree(pid, rssBytes);

/** A memory figure of /proc/<pid>/status in bytes (reported there in KiB). */
function statusBytes(pid: number, field: 'VmRSS' | 'RssAnon'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Resident set size in bytes. */
export const rssBytes = (pid: number): number => statusBytes(pid, 'VmRSS');

/**
 * The resident memory the process alone owns (heap, stacks, malloc): its RSS without the pages of
 * files it maps, most of them the Node binary's code and ICU data (about 35 MB for an empty Node
 * process here, 55 MB once a server has run), which every Node process on the machine shares.
 */
export const privateBytes = (pid: number): number => statusBytes(pid, 'RssAnon');

/**
 * Proportional set size: private pages plus each shared page divided by the processes sharing it.
 * Summed over a tree it counts the Node binary's pages once, not once per process as RSS does.
 */
export function pssBytes(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * The resident pages of the process's own executable (the Node binary: V8's and Node's code, the
 * startup snapshot, ICU data), in bytes. Shared with every Node process, so counted once per
 * process in RSS: the part of a tree's RSS that more processes add without using more memory.
 */
export function binaryBytes(pid: number): number {
  const executable = readlinkSync(`/proc/${pid}/exe`);
  let inBinary = false;
  let kilobytes = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) inBinary = mapping[1] === executable;
    else if (inBinary && line.startsWith('Rss:')) kilobytes += Number(/(\d+)/.exec(line)?.[1] ?? 0);
  }
  return kilobytes * 1024;
}

/**
 * A process's resident memory by kind of mapping, in bytes: the Node binary, anonymous memory (V8's
 * heap, thread stacks), glibc's main malloc arena (`[heap]`), shared libraries and native addons,
 * and other files. Where a process's RSS goes, and which part a burst leaves behind.
 */
export function residentByMapping(pid: number): Record<'binary' | 'anonymous' | 'mallocHeap' | 'libraries' | 'otherFiles', number> {
  const executable = readlinkSync(`/proc/${pid}/exe`);
  const kilobytes = { binary: 0, anonymous: 0, mallocHeap: 0, libraries: 0, otherFiles: 0 };
  let kind: keyof typeof kilobytes | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1] ?? '';
      kind =
        name === executable
          ? 'binary'
          : name === ''
            ? 'anonymous'
            : name === '[heap]'
              ? 'mallocHeap'
              : name.startsWith('[')
                ? undefined
                : /\.so(\.|$)|\.node$/.test(name)
                  ? 'libraries'
                  : 'otherFiles';
    } else if (kind && line.startsWith('Rss:')) kilobytes[kind] += Number(/(\d+)/.exec(line)?.[1] ?? 0);
  }
  return {
    binary: kilobytes.binary * 1024,
    anonymous: kilobytes.anonymous * 1024,
    mallocHeap: kilobytes.mallocHeap * 1024,
    libraries: kilobytes.libraries * 1024,
    otherFiles: kilobytes.otherFiles * 1024,
  };
}

/** Proportional memory of a process and all its descendants, in bytes. */
export const treePssBytes = (pid: number): number => sumOverTree(pid, pssBytes);

/** Private resident memory of a process and all its descendants, in bytes. */
export const treePrivateBytes = (pid: number): number => sumOverTree(pid, privateBytes);

/** Busy CPU of the whole machine in microseconds (all cores), to report what other tenants used. */
export function machineBusyMicros(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1_000_000) / ticksPerSecond;
}

/** CPU used by a set of processes (each with its descendants) between `start()` and `stop()`, plus the machine total for context. */
export class CpuWindow {
  private readonly pids: readonly number[];
  private startCpu: number[] = [];
  private startMachine = 0;
  private startWall = 0n;

  constructor(pids: readonly number[]) {
    this.pids = pids;
  }

  start(): void {
    this.startCpu = this.pids.map(treeCpuMicros);
    this.startMachine = machineBusyMicros();
    this.startWall = process.hrtime.bigint();
  }

  /** Micro-seconds of CPU per process (same order as the pids), the wall time, and machine-wide busy time. */
  stop(): { perProcess: number[]; wallMicros: number; machineMicros: number } {
    return {
      perProcess: this.pids.map((pid, index) => treeCpuMicros(pid) - (this.startCpu[index] ?? 0)),
      wallMicros: Number(process.hrtime.bigint() - this.startWall) / 1000,
      machineMicros: machineBusyMicros() - this.startMachine,
    };
  }
}

/** Samples a process's RSS (with its descendants') on an interval and keeps the peak and every sample (for soak slopes). */
export class RssSampler {
  private readonly pid: number;
  private timer: NodeJS.Timeout | undefined;
  readonly samples: Array<{ atMs: number; bytes: number }> = [];
  peak = 0;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(intervalMs: number): void {
    const origin = Date.now();
    const sample = () => {
      try {
        const bytes = treeRssBytes(this.pid);
        this.samples.push({ atMs: Date.now() - origin, bytes });
        if (bytes > this.peak) this.peak = bytes;
      } catch {
        // The process ended; the caller notices through its own checks.
      }
    };
    sample();
    this.timer = setInterval(sample, intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
