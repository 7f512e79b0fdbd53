import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What every child gets besides the test's own variables: loopback only, info logs, and a mongod download mirror on a
 * closed loopback port, so the download probe answers "offline" at once and no test reaches off this machine.
 */
export const CHILD_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  MONGOMS_DOWNLOAD_MIRROR: 'http://127.0.0.1:9',
};

export interface CofferProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** stdout and stderr as they came, interleaved. */
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the real entry point the way `npm start` does, with only environment variables as input. */
export function startCofferProcess(env: Record<string, string>): CofferProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...CHILD_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, output: () => output, exited };
}

/** The first answer of GET /health; fails when the process exits first or nothing answers within 30 s. */
export async function waitForHealth(url: string, started: CofferProcess): Promise<Response> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      return await fetch(`${url}/health`);
    } catch {
      if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`no answer from ${url}:\n${started.output()}`);
}

/** SIGTERM, and the exit code once it has stopped. */
export async function stopCofferProcess(started: CofferProcess): Promise<number | null> {
  if (started.child.exitCode === null) started.child.kill('SIGTERM');
  return started.exited;
}
