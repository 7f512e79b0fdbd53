import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { HttpClient } from './http-client.js';

export const REPO_ROOT = new URL('..', import.meta.url).pathname;
const OUTPUT_KEPT = 64 * 1024;

/** A server under test or a comparison server, in its own process. */
export interface Child {
  name: string;
  pid: number;
  origin: string;
  /** The last 64 KiB of its stdout and stderr, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** A port nobody listens on right now (the child binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs a TypeScript entry with `node [nodeArgs] --import tsx`, and resolves once `readyPath` answers 200.
 */
export async function startChild(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  { nodeArgs = [] as readonly string[], readyPath = '/health', timeoutMs = 60_000 } = {},
): Promise<Child> {
  const port = await freePort();
  // BENCH_CPU_PROFILE=<dir>: Coffer writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiling = name.startsWith('coffer') && profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const proc = spawn(process.execPath, [...nodeArgs, ...profiling, '--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  void exited.then(() => running.delete(proc));

  const child: Child = {
    name,
    pid: proc.pid ?? 0,
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => stopProcess(proc, exited),
  };
  await waitReady(child, proc, readyPath, timeoutMs);
  return child;
}

async function waitReady(child: Child, proc: ChildProcess, path: string, timeoutMs: number): Promise<void> {
  const client = new HttpClient(child.origin, 1);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(`${child.name} exited before it was ready:\n${child.output()}`);
      }
      const reply = await client.send({ path, timeoutMs: 2_000 }).catch(() => null);
      if (reply?.status === 200) return;
      await sleep(100);
    }
  } finally {
    client.close();
  }
  await child.stop();
  throw new Error(`${child.name} was not ready within ${timeoutMs} ms:\n${child.output()}`);
}

async function stopProcess(proc: ChildProcess, exited: Promise<void>): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGTERM');
  const killer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

/** Last resort on a fatal error or the watchdog: every child still running gets SIGKILL by its own pid. */
export function killAllChildren(): void {
  for (const proc of running) proc.kill('SIGKILL');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Memory {
  rssBytes: number;
  peakBytes: number;
}

/** VmRSS and VmHWM of a process, from /proc (Linux). */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rssBytes: kib('VmRSS'), peakBytes: kib('VmHWM') };
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0), so the peak of what follows is exact; false where refused. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const RSS_POLL_MS = 20;

/** How far a process's RSS rose above where it stood while `task` ran (its exact peak where the kernel allows). */
export async function peakGrowth<T>(pid: number, task: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
  const exactPeak = resetPeak(pid);
  const before = memoryOf(pid).rssBytes;
  let polledPeak = before;
  // Polling only where the kernel refuses to reset VmHWM: with an exact peak it would be load and nothing else.
  let polling = !exactPeak;
  const poller = (async () => {
    while (polling) {
      polledPeak = Math.max(polledPeak, memoryOf(pid).rssBytes);
      await sleep(RSS_POLL_MS);
    }
  })();
  try {
    const result = await task();
    polling = false;
    await poller;
    const peak = exactPeak ? memoryOf(pid).peakBytes : polledPeak;
    return { result, growthBytes: Math.max(0, peak - before) };
  } finally {
    polling = false;
    await poller;
  }
}

/** Runs a TypeScript script to completion (bounded by `timeoutMs`) and parses the JSON of its last stdout line. */
export function runScript<T>(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(proc);
    let stdout = '';
    let stderr = '';
    proc.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    proc.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-OUTPUT_KEPT)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(proc);
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && last) resolve(JSON.parse(last) as T);
      else reject(new Error(`${script} ended with ${signal ?? `code ${code}`}:\n${stderr}`));
    });
  });
}

// USER_HZ is 100 on every Linux ABI Node supports.
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system, all threads) a process has used so far, from /proc (Linux). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself hold spaces; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
