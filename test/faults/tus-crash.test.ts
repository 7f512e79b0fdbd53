import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCoffer } from '../../src/boot/server.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from '../mongodb/mongo-app.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { freePort, openSocket } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';
import { MIB, adminLogin, downloadSha256, sampleBytes, sha256, usageOf } from '../support/tus-client.js';
import { filesUnder, until } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(() => target?.stop());

/** The child compiles TypeScript as it starts, which takes a while on a busy machine. */
async function serving(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) throw new Error('the child server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}


describe.skipIf(!target)('a process killed in the middle of a resumable upload', () => {
  const dbName = freshDbName();
  afterAll(() => dropDatabases(target!.uri, [dbName]));

  it('leaves a partial write and a hold that the next start sweeps; the upload then resumes from another process', async () => {
    const dataDir = tempDir('tus-crash');
    const env = { MONGODB_URI: target!.uri, MONGODB_DB: dbName, BLOB_STORE: 'fs', DATA_DIR: dataDir };
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    await serving(url);
    const token = await adminLogin(url);
    const data = sampleBytes(8 * MIB);
    const created = await fetch(`${url}/api/upload/tus`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(data.length) },
    });
    const location = created.headers.get('location')!;

    // An append that sends 3 MiB of its 8 and goes quiet: the server writes and reserves as the bytes come.
    const socket = await openSocket(url);
    socket.write(
      [
        `PATCH ${location} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: token ${token}`,
        'Tus-Resumable: 1.0.0',
        'Content-Type: application/offset+octet-stream',
        'Upload-Offset: 0',
        `Content-Length: ${data.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(data.subarray(0, 3 * MIB));
    await until(async () => Number((await usageOf(url, token)).storage) >= 2 * MIB, 'the append to reserve bytes');
    child.kill('SIGKILL');
    await exited;
    socket.destroy();
    expect(await filesUnder(join(dataDir, 'tmp'))).toHaveLength(1);

    // The next start sweeps what the killed append left: its temporary file (its writer is gone) and its hold.
    const next = await startCoffer(mongoConfig(target!.uri, dbName, env), {
      argon2: CHEAP_ARGON2,
      sweep: { graceMs: 0 },
    });
    try {
      const token2 = await adminLogin(next.url);
      expect(await filesUnder(join(dataDir, 'tmp'))).toEqual([]);
      // The upload itself lives on (its file count held), with nothing of the cut append committed.
      expect(await usageOf(next.url, token2)).toEqual({ storage: '0', files: 1 });
      const tus = { authorization: `token ${token2}`, 'tus-resumable': '1.0.0' };
      const head = await fetch(next.url + location, { method: 'HEAD', headers: tus });
      expect(head.headers.get('upload-offset')).toBe('0');

      const resumed = await fetch(next.url + location, {
        method: 'PATCH',
        headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
        body: data,
      });
      expect(resumed.status).toBe(204);
      const fileId = resumed.headers.get('x-file-id')!;
      expect(await downloadSha256(next.url, fileId, token2)).toEqual({ hash: sha256(data), size: data.length });
      expect(await usageOf(next.url, token2)).toEqual({ storage: String(data.length), files: 1 });
    } finally {
      await next.close();
    }
  }, 90_000);
});
