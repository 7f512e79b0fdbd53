import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, openSocket, uploadHead } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';
import { filesUnder, until } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the real entry point the way `npm start` does, with only environment variables as input. */
function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    // The mongod download probe asks a closed loopback port: tests never reach off this machine.
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MONGOMS_DOWNLOAD_MIRROR: 'http://127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(url: string, started: Started): Promise<Response> {
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

describe('the service as started from the command line', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves /health, prints a one-time admin password that works, and stops on SIGTERM', async () => {
    const port = await freePort();
    const started = start({ PORT: String(port), DATA_DIR: tempDir('e2e') });
    children.push(started.child);
    const url = `http://127.0.0.1:${port}`;

    const health = await waitForHealth(url, started);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', persistence: expect.any(String) });

    const match = /random password (\S+)/.exec(started.output());
    expect(match).not.toBeNull();
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: match![1] }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const users = await fetch(`${url}/api/admin/users`, { headers: { authorization: `token ${token}` } });
    expect(users.status).toBe(200);
    // The token itself never reaches the log.
    expect(started.output()).not.toContain(token);

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('refuses to start on bad configuration, naming the variable', async () => {
    const started = start({ PORT: 'eighty' });
    children.push(started.child);
    expect(await started.exited).not.toBe(0);
    expect(started.output()).toContain('PORT');
  });

  it('uses the configured admin and never prints its password', async () => {
    const port = await freePort();
    const password = 'configured-admin-password';
    const started = start({
      PORT: String(port),
      DATA_DIR: tempDir('e2e'),
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: password,
    });
    children.push(started.child);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, started);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password }),
    });
    expect(login.status).toBe(200);
    expect(started.output()).not.toContain(password);
    expect(started.output()).not.toContain('random password');
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('on memory persistence, a kill -9 mid-upload leaves no bytes once the service has started again', async () => {
    const dataDir = tempDir('e2e-kill');
    const env = { DATA_DIR: dataDir, PERSISTENCE: 'memory', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-long' };
    const port = await freePort();
    const first = start({ ...env, PORT: String(port) });
    children.push(first.child);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, first);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: 'root-password-long' }),
    });
    const { token } = (await login.json()) as { token: string };

    const socket = await openSocket(url);
    socket.write(uploadHead(token, 64 * 1024 * 1024));
    socket.write(Buffer.alloc(3 * 1024 * 1024, 1));
    await until(async () => (await filesUnder(dataDir)).length > 0, 'the upload to reach the disk');
    first.child.kill('SIGKILL');
    await first.exited;
    socket.destroy();
    expect((await filesUnder(dataDir)).length).toBeGreaterThan(0);

    const again = start({ ...env, PORT: String(port) });
    children.push(again.child);
    await waitForHealth(url, again);
    expect(await filesUnder(dataDir)).toEqual([]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    // Two service starts and a streamed upload: well over the default 20 s on a loaded two-core machine.
  }, 60_000);
});
