import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_SIZE } from '../../web/src/common/e2e/ece.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

const COMMAND = fileURLToPath(new URL('../../bin/coffer-e2e.mjs', import.meta.url));

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** The command as a user runs it: its own process, its launcher, its exit status. */
function run(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMMAND, ...args], { cwd, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const sha256 = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path).on('data', (chunk) => hash.update(chunk)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function server(maxUploadBytes = 5 * 1024 * 1024) {
  const app = (t = await makeHttp({ blobs: 'fs', maxUploadBytes, limits: { storage: 1024 ** 3 } }));
  const token = await app.userToken('alice');
  return { app, token };
}

describe('coffer-e2e upload and download', () => {
  it('round-trips 0, 1, 65,535, 65,536 and 65,537 bytes, each under its own name, byte for byte', async () => {
    const { app, token } = await server();
    const dir = tempDir('e2e-cli');
    for (const size of [0, 1, RECORD_SIZE - 1, RECORD_SIZE, RECORD_SIZE + 1]) {
      const name = `sample-${size}.bin`;
      const bytes = randomBytes(size);
      writeFileSync(join(dir, name), bytes);
      const up = await run(['upload', name, '--server', app.url, '--token', token], dir);
      expect(up.stderr).toBe('');
      expect(up.status).toBe(0);
      const link = up.stdout.trim();
      expect(link).toMatch(new RegExp(`^${app.url}/s/[A-Za-z0-9_-]{22}#k=[A-Za-z0-9_-]{22}$`));
      const outDir = tempDir('e2e-cli-out');
      const down = await run(['download', link], outDir);
      expect(down.status).toBe(0);
      expect(readFileSync(join(outDir, name)).equals(bytes)).toBe(true);
      expect(readdirSync(outDir)).toEqual([name]);
    }
  });

  it('refuses a link without its key, with another key, and a tampered file, leaving nothing behind', async () => {
    const { app, token } = await server();
    const dir = tempDir('e2e-cli');
    writeFileSync(join(dir, 'note.txt'), randomBytes(3 * RECORD_SIZE));
    const link = (await run(['upload', 'note.txt', '--server', app.url, '--token', token], dir)).stdout.trim();
    const bare = link.split('#')[0]!;
    const noKey = await run(['download', bare], dir);
    expect(noKey.status).toBe(1);
    expect(noKey.stderr).toMatch(/carries no key/);
    const otherKey = await run(['download', `${bare}#k=${'A'.repeat(22)}`, '-o', 'other.txt'], dir);
    expect(otherKey.status).toBe(1);
    expect(otherKey.stderr).toMatch(/does not open this file/);

    // One byte of the stored ciphertext changed on the server's disk: the download is refused and leaves no file.
    const shareId = new URL(link).pathname.split('/').pop()!;
    const share = (await app.ports.shares.findById(shareId))!;
    const stored = (await app.ports.files.findById(share.itemId))!;
    const blobs = await app.ports.blobs.read(stored.blobKey);
    const chunks: Buffer[] = [];
    for await (const chunk of blobs) chunks.push(Buffer.from(chunk));
    const whole = Buffer.concat(chunks);
    whole[whole.length - 100]! ^= 1;
    await app.ports.blobs.delete(stored.blobKey);
    await app.ports.blobs.write((async function* () { yield whole; })(), { key: stored.blobKey });
    const tampered = await run(['download', link, '-o', 'tampered.txt'], dir);
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toMatch(/refused/);
    expect(existsSync(join(dir, 'tampered.txt'))).toBe(false);
    expect(existsSync(join(dir, 'tampered.txt.part'))).toBe(false);
  });

  it('a password-protected share: upload with --password, download with it', async () => {
    const { app, token } = await server();
    const dir = tempDir('e2e-cli');
    writeFileSync(join(dir, 'p.txt'), 'under a password');
    const link = (await run(['upload', 'p.txt', '--server', app.url, '--token', token, '--password', 'correct horse'], dir)).stdout.trim();
    expect((await run(['download', link, '-o', 'a.txt'], dir)).status).toBe(1);
    expect((await run(['download', link, '-o', 'b.txt', '--password', 'correct horse'], dir)).status).toBe(0);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('under a password');
  });

  it('takes option values that begin with a dash (a token or a password may)', async () => {
    const { app, token } = await server();
    const dir = tempDir('e2e-cli-dash');
    writeFileSync(join(dir, 'd.txt'), 'dashing');
    const upload = await run(['upload', 'd.txt', '--server', app.url, '--token', token, '--password', '-starts-with-a-dash'], dir);
    expect(upload.status, upload.stderr).toBe(0);
    const got = await run(['download', upload.stdout.trim(), '-o', 'e.txt', '--password', '-starts-with-a-dash'], dir);
    expect(got.status, got.stderr).toBe(0);
    expect(readFileSync(join(dir, 'e.txt'), 'utf8')).toBe('dashing');
  });

  it('200 MB through the command, streamed both ways, byte-exact', { timeout: 240_000 }, async () => {
    const { app, token } = await server(300 * 1024 * 1024);
    const dir = tempDir('e2e-cli-big');
    const size = 200 * 1024 * 1024;
    // Written from a generator in 1 MiB pieces, hashed as it goes: never whole in this process either.
    const hash = createHash('sha256');
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(join(dir, 'big.bin')).on('error', reject).on('finish', resolve);
      let left = size;
      const more = () => {
        while (left > 0) {
          const piece = randomBytes(Math.min(left, 1024 * 1024));
          left -= piece.length;
          hash.update(piece);
          if (!out.write(piece)) return void out.once('drain', more);
        }
        out.end();
      };
      more();
    });
    const expected = hash.digest('hex');
    const up = await run(['upload', 'big.bin', '--server', app.url, '--token', token], dir);
    expect(up.stderr).toBe('');
    const down = await run(['download', up.stdout.trim(), '-o', 'back.bin'], dir);
    expect(down.status).toBe(0);
    expect(await sha256(join(dir, 'back.bin'))).toBe(expected);
  });
});
