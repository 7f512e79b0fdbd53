import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { davTokenStartingWithDash } from '../support/dav-token.js';
import { tempDir } from '../support/temp.js';

const RCLONE = '/usr/bin/rclone';
const available = existsSync(RCLONE);
if (!available) console.log('rclone tests skipped: install Debian\'s rclone (apt-get install rclone) to run them');

const run = promisify(execFile);

const TOP = ['Ärger', '日本語', 'naïve café'];
const MIDDLE = ['Ünïcödé', 'Ελληνικά', 'emoji 🎉', 'plain', 'Ωmega (2)'];
const fileName = (i: number) => [`Résumé ${i}.txt`, `данные-${i}.bin`, `ß & ü ${i}.md`, `file #${i}%.dat`][i % 4]!;

/** 3 × 5 × 20 = 300 files in 3 levels, every folder and most files with a name outside ASCII. */
function writeTree(root: string): number {
  let count = 0;
  for (const top of TOP) {
    for (const middle of MIDDLE) {
      const dir = join(root, top, middle);
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < 20; i++) {
        writeFileSync(join(dir, fileName(i)), randomBytes(1 + ((i * 7919) % 20_000)));
        count++;
      }
    }
  }
  return count;
}

describe.skipIf(!available)('rclone (Debian) against /dav/', () => {
  let t: HttpTest;
  let config: string;
  let dir: string;

  beforeAll(async () => {
    t = await makeHttp({ checkAnswers: false, limits: { files: 1000, folders: 100, storage: 100 * 1024 * 1024 } });
    const { token: session } = await t.user('rc');
    const token = await davTokenStartingWithDash(t, session);
    dir = tempDir('rclone-');
    const { stdout: obscured } = await run(RCLONE, ['obscure', '--', token]); // `--`: the token may begin with '-'
    config = join(dir, 'rclone.conf');
    writeFileSync(
      config,
      `[coffer]\ntype = webdav\nurl = ${t.url}/dav/\nvendor = other\nuser = rc\npass = ${obscured.trim()}\n`,
    );
  });
  afterAll(async () => t?.close());

  const rclone = (...args: string[]) => run(RCLONE, ['--config', config, '--low-level-retries', '1', '--retries', '1', ...args], { maxBuffer: 16 * 1024 * 1024 });

  it('copies a 300-file tree with non-ASCII names up and back, byte-identical', { timeout: 300_000 }, async () => {
    const source = join(dir, 'source');
    expect(writeTree(source)).toBe(300);
    await rclone('copy', source, 'coffer:tree');
    // --download compares the bytes themselves: WebDAV of vendor "other" offers no hashes.
    await rclone('check', '--download', source, 'coffer:tree');
    const back = join(dir, 'back');
    await rclone('copy', 'coffer:tree', back);
    await rclone('check', '--download', source, back);
    const { stdout } = await rclone('lsf', '-R', '--files-only', 'coffer:tree');
    expect(stdout.trim().split('\n')).toHaveLength(300);
  });
});
