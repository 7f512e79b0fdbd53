import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeMongod } from '../../src/adapters/mongodb/index.js';
import { connectPersistence } from '../../src/boot/composition.js';
import { loadConfig } from '../../src/boot/config.js';
import { createLogger } from '../../src/boot/logger.js';
import { MEMORY_FALLBACK_WARNING } from '../../src/boot/persistence.js';
import { tempDir } from '../support/temp.js';

const VARIABLES = [
  'MONGOMS_SYSTEM_BINARY',
  'MONGOMS_DOWNLOAD_URL',
  'MONGOMS_DOWNLOAD_MIRROR',
  'MONGOMS_RUNTIME_DOWNLOAD',
] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

/** Whether a mongod is already cached here (then the download branch is never reached); known before skipIf runs. */
async function hasCachedMongod(): Promise<boolean> {
  for (const name of VARIABLES) delete process.env[name];
  process.env.MONGOMS_RUNTIME_DOWNLOAD = 'false';
  try {
    return (await probeMongod(500)) === 'cached';
  } finally {
    restore();
  }
}

function restore(): void {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
}

const cached = await hasCachedMongod();
beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
});
afterEach(restore);

async function answering(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('probeMongod', () => {
  it('finds an executable MONGOMS_SYSTEM_BINARY without running or downloading anything', async () => {
    const binary = join(tempDir('mongod'), 'mongod');
    writeFileSync(binary, '#!/bin/sh\nexit 1\n');
    chmodSync(binary, 0o755);
    process.env.MONGOMS_SYSTEM_BINARY = binary;
    expect(await probeMongod(500)).toBe('system');
  });

  it('reports no binary when MONGOMS_SYSTEM_BINARY names nothing', async () => {
    process.env.MONGOMS_SYSTEM_BINARY = join(tmpdir(), 'no-such-dir', 'mongod');
    expect(await probeMongod(500)).toBeNull();
  });

  it.skipIf(cached)('counts a download host that answers, and only when runtime downloads are allowed', async () => {
    const { url, server } = await answering();
    try {
      process.env.MONGOMS_DOWNLOAD_MIRROR = url;
      delete process.env.MONGOMS_RUNTIME_DOWNLOAD;
      expect(await probeMongod(2000)).toBe('download');
      process.env.MONGOMS_RUNTIME_DOWNLOAD = 'false';
      expect(await probeMongod(2000)).toBeNull();
    } finally {
      server.close();
    }
  });

  it.skipIf(cached)('reports no binary, quickly, when the download host does not answer', async () => {
    const { url, server } = await answering();
    await new Promise((resolve) => server.close(resolve));
    process.env.MONGOMS_DOWNLOAD_MIRROR = url;
    delete process.env.MONGOMS_RUNTIME_DOWNLOAD;
    const started = Date.now();
    expect(await probeMongod(2000)).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe.skipIf(cached)('connectPersistence when the probe promised a download that then fails', () => {
  const download = async () => 'download' as const;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('warn', sink);

  it('falls back to memory with the warning when the choice was automatic', async () => {
    process.env.MONGOMS_RUNTIME_DOWNLOAD = 'false';
    const persistence = await connectPersistence(loadConfig({}), { logger, probe: download });
    expect(persistence.kind).toBe('memory');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([MEMORY_FALLBACK_WARNING]);
  });

  it('stops start-up when PERSISTENCE=embedded asked for it', async () => {
    process.env.MONGOMS_RUNTIME_DOWNLOAD = 'false';
    const config = loadConfig({ PERSISTENCE: 'embedded' });
    await expect(connectPersistence(config, { logger, probe: download })).rejects.toThrow(/No mongod binary/);
  });
});
