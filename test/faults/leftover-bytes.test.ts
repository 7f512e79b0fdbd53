import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../src/adapters/fs-blob-store/fs-blob-store.js';
import { writerPrefix } from '../../src/adapters/fs-blob-store/writer.js';
import { loadConfig } from '../../src/boot/config.js';
import { EPHEMERAL_DIR } from '../../src/boot/ephemeral-blobs.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { CHEAP_ARGON2 } from '../support/core.js';
import { tempDir } from '../support/temp.js';
import { filesUnder } from '../support/wait.js';

const ADMIN = { username: 'root', password: 'root-password-long' };
const running: RunningCoffer[] = [];
afterEach(async () => {
  for (const coffer of running.splice(0)) await coffer.close();
});

async function startMemory(dataDir: string): Promise<RunningCoffer> {
  const config = loadConfig({
    PERSISTENCE: 'memory',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '1',
    LOG_LEVEL: 'silent',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const coffer = await startCoffer({ ...config, port: 0 }, { argon2: CHEAP_ARGON2 });
  running.push(coffer);
  return coffer;
}

async function upload(url: string, bytes: number): Promise<number> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes).fill(7)]), 'kept.bin');
  const res = await fetch(`${url}/api/file`, { method: 'POST', headers: { authorization: `token ${token}` }, body: form });
  return res.status;
}

/** The pid of a process that has exited: nothing runs under it (until the system hands it out again). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('memory persistence leaves nothing behind', () => {
  it('keeps the bytes of a run in a directory of its own, removed when the service closes', async () => {
    const dataDir = tempDir('leftover');
    // What a durable persistence keeps in the same DATA_DIR is never touched.
    const durable = join(dataDir, 'blobs', 'ab', 'ab'.padEnd(32, '0'));
    mkdirSync(join(durable, '..'), { recursive: true });
    writeFileSync(durable, 'durable bytes');

    const coffer = await startMemory(dataDir);
    expect(await upload(coffer.url, 200_000)).toBe(201);
    expect((await filesUnder(join(dataDir, EPHEMERAL_DIR))).length).toBe(1);
    await coffer.close();
    expect(await filesUnder(dataDir)).toEqual([durable.split('/').at(-1)]);
  });

  it('removes what a dead run left at the next start, and spares runs still alive or of another host', async () => {
    const dataDir = tempDir('leftover');
    const [host] = writerPrefix().split('-');
    const run = (name: string) => join(dataDir, EPHEMERAL_DIR, `run-${name}`, 'blobs');
    const dead = run(`${host}-${await deadPid()}-abc-abc123`);
    // This very pid, started earlier: a container restarted under PID 1 again.
    const samePidEarlier = run(`${host}-${process.pid}-zzzz-abc123`);
    const live = run(`${writerPrefix()}-def456`);
    const otherHost = run(`00000000-${await deadPid()}-abc-abc123`);
    for (const dir of [dead, samePidEarlier, live, otherHost]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'piece'), 'x');
    }
    await startMemory(dataDir);
    for (const gone of [dead, samePidEarlier]) expect(await filesUnder(gone)).toEqual([]);
    for (const kept of [live, otherHost]) expect(await filesUnder(kept)).toEqual(['piece']);
  });
});

describe('temporary files of a write cut short', () => {
  it('go at the next sweep when their writer on this host is gone, however young; others wait for the age rule', async () => {
    const dir = tempDir('tmpfiles');
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const [host] = writerPrefix().split('-');
    const names = {
      deadWriter: `${host}-${await deadPid()}-abc-0123456789abcdef`,
      thisRunEarlier: `${host}-${process.pid}-zzzz-0123456789abcdef`,
      liveWriter: `${writerPrefix()}-0123456789abcdef`,
      otherHost: `00000000-${await deadPid()}-abc-0123456789abcdef`,
      unknownShape: '0123456789abcdef0123456789abcdef',
    };
    for (const name of Object.values(names)) writeFileSync(join(tmp, name), 'partial');

    const store = new FsBlobStore({ dir });
    const anHourAgo = new Date(Date.now() - 3600_000);
    expect(await store.purgeIncomplete(anHourAgo)).toBe(2);
    expect((await filesUnder(tmp)).sort()).toEqual([names.liveWriter, names.otherHost, names.unknownShape].sort());
  });
});

describe('the frequent sweep of what dead writers left', () => {
  it('removes only temporary files whose writer on this host is gone, however young, never stored blobs', async () => {
    const dir = tempDir('abandoned');
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const [host] = writerPrefix().split('-');
    const dead = `${host}-${await deadPid()}-abc-0123456789abcdef`;
    const live = `${writerPrefix()}-0123456789abcdef`;
    const otherHost = `00000000-${await deadPid()}-abc-0123456789abcdef`;
    for (const name of [dead, live, otherHost]) writeFileSync(join(tmp, name), 'partial');
    const store = new FsBlobStore({ dir });
    const stored = await store.write((async function* () { yield new Uint8Array([1, 2, 3]); })());

    expect(await store.purgeAbandoned()).toBe(1);
    expect((await filesUnder(tmp)).sort()).toEqual([live, otherHost].sort());
    expect(await store.size(stored.key)).toBe(3);
  });
});
