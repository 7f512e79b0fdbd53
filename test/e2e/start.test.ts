import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startCofferProcess as start, waitForHealth } from '../support/coffer-process.js';
import { freePort, openSocket, uploadHead } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';
import { filesUnder, until } from '../support/wait.js';

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
    // The line says where to sign in and where to choose a new password: the dashboard, not an API route.
    const line = started.output().split('\n').find((l) => l.includes('random password'))!;
    expect(line).toContain(`sign in at ${url}/ and choose a new password on its Account page (${url}/account)`);
    expect(line).not.toContain('/api/');
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: match![1] }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const users = await fetch(`${url}/api/admin/users`, { headers: { authorization: `token ${token}` } });
    expect(users.status).toBe(200);
    const me = await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ username: 'admin', mustChangePassword: true });
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
