import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

it('drives the core from a plain script through the embedding entry point, without Koa', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/embed/host-script.ts'], {
    cwd: ROOT,
    timeout: 30_000,
  });
  expect(JSON.parse(stdout.trim())).toEqual({
    tree: { name: 'Projects', children: ['Drafts'] },
    limit: { code: 'limit_reached', limit: 'folders' },
    shared: { type: 'paste', content: 'hello from a host', views: 1 },
    usage: { folders: { current: 2, max: 2 }, pastes: 1, storage: String(Buffer.byteLength('hello from a host')) },
  });
});
