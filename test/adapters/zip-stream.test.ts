import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../../src/application/contract.js';
import { ZipStream } from '../../src/adapters/http/responses/zip/zip-stream.js';
import { tempDir } from '../support/temp.js';
import { readZip } from '../support/zip-reader.js';

const UNZIP = '/usr/bin/unzip';

function entry(path: string, bytes: Buffer, chunk = 1000): ArchiveEntry {
  return {
    path,
    size: bytes.length,
    modified: new Date('2026-11-22T10:00:00.000Z'),
    open: async () =>
      (async function* () {
        for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
      })(),
  };
}

async function zipOf(zip: ZipStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of zip.bytes()) parts.push(part);
  return Buffer.concat(parts);
}

const FILES = new Map([
  ['a.txt', Buffer.from('hello')],
  ['dir/b.bin', randomBytes(70_001)],
  ['dir/ünïcödé ✓.txt', Buffer.from('names are UTF-8')],
  ['empty.txt', Buffer.alloc(0)],
]);
const source = () => ({ folders: ['dir', 'dir/empty'], files: [...FILES].map(([path, bytes]) => entry(path, bytes)) });

describe('the zip stream', () => {
  it('writes exactly the length it announced, every entry stored with its CRC', async () => {
    const zip = new ZipStream(source());
    const bytes = await zipOf(zip);
    expect(bytes.length).toBe(zip.layout.total);
    const entries = readZip(bytes);
    expect(entries.map((e) => e.name)).toEqual(['dir/', 'dir/empty/', ...FILES.keys()]);
    for (const e of entries.filter((x) => !x.name.endsWith('/'))) expect(e.bytes.equals(FILES.get(e.name)!)).toBe(true);
  });

  it.each([false, true])('is read whole by Info-ZIP unzip (ZIP64 records: %s)', async (forceZip64) => {
    if (!existsSync(UNZIP)) {
      console.log(`skipped: no ${UNZIP} to check the archive with (apt-get install unzip)`);
      return;
    }
    const zip = new ZipStream(source(), { forceZip64 });
    const bytes = await zipOf(zip);
    expect(bytes.length).toBe(zip.layout.total);
    const dir = tempDir('zip');
    writeFileSync(join(dir, 'test.zip'), bytes);
    const test = spawnSync(UNZIP, ['-t', join(dir, 'test.zip')], { encoding: 'utf8' });
    expect(test.stdout).toContain('No errors detected');
    expect(test.status).toBe(0);
    const out = join(dir, 'out');
    expect(spawnSync(UNZIP, ['-q', join(dir, 'test.zip'), '-d', out]).status).toBe(0);
    for (const [path] of FILES) expect(existsSync(join(out, path))).toBe(true);
  });

  it('refuses, before a byte, an entry name APPNOTE 4.4.17 forbids: drive, stream, backslash, slash, dots, controls', () => {
    const bad = ['C:/win.txt', 'D:', 'dir/a:b', 'C:\\dir\\x', '/etc/passwd', '../x', 'a/./b', 'a//b', '', 'x\u0007', 'x\u0085'];
    for (const path of bad) {
      expect(() => new ZipStream({ folders: [], files: [entry(path, Buffer.from('x'))] }), path).toThrow('APPNOTE 4.4.17');
    }
    for (const path of ['C:', '..', '/abs']) {
      expect(() => new ZipStream({ folders: [path], files: [] }), path).toThrow('APPNOTE 4.4.17');
    }
    expect(new ZipStream({ folders: ['C_'], files: [entry('C_/Meeting 10_30.txt', Buffer.from('x'))] }).layout.entries)
      .toHaveLength(2);
  });

  it('fails rather than end in a broken archive when a file yields other than its size', async () => {
    const short = { ...entry('short.bin', Buffer.from('1234')), size: 10 };
    await expect(zipOf(new ZipStream({ folders: [], files: [short] }))).rejects.toThrow('read 4 bytes, expected 10');
  });
});
