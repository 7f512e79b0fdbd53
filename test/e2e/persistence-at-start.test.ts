import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { probeMongod } from '../../src/adapters/mongodb/index.js';
import {
  CHILD_ENV,
  startCofferProcess,
  stopCofferProcess,
  waitForHealth,
  type CofferProcess,
} from '../support/coffer-process.js';
import { freePort } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';

// These tests are about a machine where no database can be had. A mongod binary in mongodb-memory-server's cache would
// give the children an embedded MongoDB instead, so they would test nothing: then they are skipped, saying so.
const mongodFound = (await probeMongod(1000, { ...process.env, ...CHILD_ENV })) !== null;
const SKIP_REASON = 'start-up without a database not tested: a mongod binary is on this machine, so Coffer would embed it';
if (mongodFound) console.log(SKIP_REASON);

const PRODUCTION_STOP = /^coffer: configuration error: NODE_ENV is production and no database is configured or can be had/m;

describe.skipIf(mongodFound)('start-up without a database', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  async function started(env: Record<string, string>): Promise<{ coffer: CofferProcess; url: string }> {
    const port = await freePort();
    const coffer = startCofferProcess({
      PORT: String(port),
      DATA_DIR: tempDir('persistence-start'),
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'root-password-long',
      ...env,
    });
    children.push(coffer.child);
    return { coffer, url: `http://127.0.0.1:${port}` };
  }

  it('with NODE_ENV=production stops, naming every way to get a database, and serves nothing', async () => {
    const { coffer, url } = await started({ NODE_ENV: 'production' });
    expect(await coffer.exited).toBe(1);
    const stderr = coffer.stderr();
    expect(stderr).toMatch(PRODUCTION_STOP);
    for (const way of ['MONGODB_URI', 'MONGOMS_SYSTEM_BINARY', 'download', 'PERSISTENCE=memory']) {
      expect(stderr, way).toContain(way);
    }
    // It stopped before choosing memory: no memory warning, no listening line.
    expect(coffer.output()).not.toMatch(/kept in memory only|coffer listening/);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('with NODE_ENV=production and PERSISTENCE=memory runs on memory, warning on stderr in plain lines', async () => {
    const { coffer, url } = await started({ NODE_ENV: 'production', PERSISTENCE: 'memory' });
    expect(await (await waitForHealth(url, coffer)).json()).toEqual({ status: 'ok', persistence: 'memory' });
    const session = await fetch(`${url}/api/auth/session`);
    expect(await session.json()).toEqual({ user: null, registration: false, persistence: 'memory' });
    await expect.poll(() => coffer.stderr()).toContain('PERSISTENCE=memory is set, so all data is kept in memory only.');
    expect(coffer.stderr()).toContain('Everything, accounts included, is lost when Coffer stops');
    expect(coffer.stderr()).not.toMatch(PRODUCTION_STOP);
    expect(await stopCofferProcess(coffer)).toBe(0);
  });

  it('elsewhere falls back to memory, with the JSON warning on stdout and a multi-line notice on stderr', async () => {
    for (const env of [{}, { NODE_ENV: 'development' }] as Record<string, string>[]) {
      const { coffer, url } = await started(env);
      expect(await (await waitForHealth(url, coffer)).json()).toEqual({ status: 'ok', persistence: 'memory' });
      const session = await fetch(`${url}/api/auth/session`);
      expect(((await session.json()) as { persistence: string }).persistence).toBe('memory');

      const warning = coffer
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .find((entry) => entry.level === 40 && /NOTHING survives a restart/.test(entry.msg));
      expect(warning, coffer.stdout()).toBeDefined();

      await expect.poll(() => coffer.stderr()).toContain('kept in memory only');
      const notice = coffer.stderr().slice(coffer.stderr().indexOf('coffer: WARNING'));
      const lines = notice.trimEnd().split('\n');
      expect(lines[0]).toBe('coffer: WARNING: no database is configured or available, so all data is kept in memory only.');
      expect(lines.length).toBeGreaterThanOrEqual(5);
      // Plain text for people: no JSON line among them.
      for (const line of lines) expect(line.startsWith('{'), line).toBe(false);
      expect(notice).toContain('Everything, accounts included, is lost when Coffer stops');
      expect(notice).toMatch(/^ {4}MONGODB_URI=/m);
      expect(notice).toMatch(/^ {4}MONGOMS_SYSTEM_BINARY=/m);
      expect(notice).toMatch(/downloads a mongod once/);
      expect(notice).toContain('PERSISTENCE=memory');
      expect(await stopCofferProcess(coffer)).toBe(0);
    }
  }, 60_000);
});
