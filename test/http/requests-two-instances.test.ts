import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { CHEAP_ARGON2 } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig } from '../mongodb/mongo-app.js';

const running: RunningCoffer[] = [];
afterEach(async () => {
  for (const coffer of running.splice(0)) await coffer.close();
});

const ENV = { PERSISTENCE: 'memory', HOST: '127.0.0.1', PORT: '1', LOG_LEVEL: 'silent', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  return ((await res.json()) as { token: string }).token;
}

/** 20 uploads with no credential, alternating between the two instances, into a request with room for 5. */
async function race(urls: [string, string]) {
  const token = await login(urls[0]);
  const made = await fetch(`${urls[0]}/api/request`, { method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'race', maxFiles: 5 }) });
  const request = (await made.json()) as { id: string; folderId: string };
  const statuses = await Promise.all(
    Array.from({ length: 20 }, (_, i) => {
      const form = new FormData();
      form.append('file', new Blob([`file ${i}`]), `f${i}.txt`);
      return fetch(`${urls[i % 2]}/api/request/${request.id}/file`, { method: 'POST', body: form }).then((r) => r.status);
    }),
  );
  const read = async (path: string) => (await (await fetch(`${urls[1]}${path}`, { headers: { authorization: `token ${token}` } })).json()) as Record<string, unknown>;
  return { statuses, request: await read(`/api/request/${request.id}`), folder: await read(`/api/folder/${request.folderId}`), usage: await read('/api/usage/stats') };
}

function expectExactlyFive({ statuses, request, folder, usage }: Awaited<ReturnType<typeof race>>) {
  expect(statuses.filter((s) => s === 201)).toHaveLength(5);
  expect(statuses.filter((s) => s !== 201 && s !== 410 && s !== 429)).toEqual([]);
  expect(request).toMatchObject({ files: 5, state: 'full' });
  expect(folder['files']).toHaveLength(5);
  expect(usage['files']).toMatchObject({ current: 5 });
}

describe('a file request across two instances', () => {
  it('on one memory database: 20 parallel uploads with room for 5 give exactly 5', async () => {
    const config = { ...loadConfig(ENV), port: 0 };
    const options = { argon2: CHEAP_ARGON2, blobStore: 'memory' as const, webDir: null };
    const a = await startCoffer(config, options);
    running.push(a);
    const b = await startCoffer(config, { ...options, memoryOf: a.container });
    running.push(b);
    expectExactlyFive(await race([a.url, b.url]));
  });
});

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(async () => target?.stop());

describe.skipIf(!target)('a file request across two instances on one MongoDB', () => {
  it('20 parallel uploads with room for 5 give exactly 5', async () => {
    const dbName = freshDbName();
    try {
      const config = { ...mongoConfig(target!.uri, dbName), port: 0 };
      const a = await startCoffer(config, { argon2: CHEAP_ARGON2 });
      running.push(a);
      const b = await startCoffer(config, { argon2: CHEAP_ARGON2 });
      running.push(b);
      expectExactlyFive(await race([a.url, b.url]));
    } finally {
      for (const coffer of running.splice(0)) await coffer.close();
      await dropDatabases(target!.uri, [dbName]);
    }
  });
});
