import { spawn } from 'node:child_process';

export interface Step {
  readonly title: string;
  readonly command: string;
  readonly args: readonly string[];
}

export interface StepResult {
  readonly step: Step;
  readonly ok: boolean;
  readonly seconds: number;
}

/**
 * Runs `steps`, `atOnce` at a time, each one's output held back and printed whole when it ends (two
 * outputs interleaved line by line would be unreadable), with its time. Answers every step's result,
 * in the order they ended; a failed step does not stop the others, so one run shows every failure.
 */
export async function runSideBySide(
  steps: readonly Step[],
  atOnce: number,
  cwd: string,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const waiting = [...steps];
  const lane = async () => {
    for (let step = waiting.shift(); step; step = waiting.shift()) results.push(await runHeldBack(step, cwd, print));
  };
  await Promise.all(Array.from({ length: Math.max(1, atOnce) }, lane));
  return results;
}

function runHeldBack(step: Step, cwd: string, print: (text: string) => void): Promise<StepResult> {
  const started = performance.now();
  const output: Buffer[] = [];
  const child = spawn(step.command, step.args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      const seconds = (performance.now() - started) / 1000;
      print(`\n${ok ? '✓' : '✗'} ${step.title} (${seconds.toFixed(1)} s)\n${Buffer.concat(output).toString()}`);
      resolve({ step, ok, seconds });
    };
    child.once('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(false);
    });
    child.once('close', (code) => finish(code === 0));
  });
}
