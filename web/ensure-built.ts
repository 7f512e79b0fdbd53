import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds web/dist when it is missing or was built from other sources: run by `npm install` (prepare), `npm start`
 * (prestart) and the test run (globalSetup), so a fresh clone needs no extra command. "Other sources" is a hash
 * of everything under web/ except dist (both pages, `src/share/` and `src/dash/`, and what they share,
 * `src/common/`; the pages import no code from the server's `src/`), plus the lock file (a new Vite or Preact
 * changes the output too).
 */
const WEB = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(WEB, '..');
export const WEB_DIST = join(WEB, 'dist');
const STAMP = join(WEB_DIST, '.sources-hash');

function inputs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !(dir === WEB && entry.name === 'dist'))
    .flatMap((entry) => (entry.isDirectory() ? inputs(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

export function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of [...inputs(WEB), join(ROOT, 'package-lock.json')]) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function isWebBuildCurrent(): boolean {
  if (!existsSync(join(WEB_DIST, 'index.html')) || !existsSync(STAMP)) return false;
  return readFileSync(STAMP, 'utf8') === sourcesHash();
}

/**
 * A production build in a process of its own: Vite takes the mode of its bundle from NODE_ENV, which a test run
 * sets to `test`, and a build stamped as current must be the one `npm start` would serve.
 */
function viteBuild(): void {
  const vite = join(createRequire(import.meta.url).resolve('vite/package.json'), '..', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(WEB, 'vite.config.ts')], {
    cwd: WEB,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`vite build failed (${run.error?.message ?? `exit ${run.status}`})`);
}

/** Returns true when it built. */
export function ensureWebBuilt(force = false): boolean {
  if (!force && isWebBuildCurrent()) return false;
  const hash = sourcesHash();
  viteBuild();
  writeFileSync(STAMP, hash);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = ensureWebBuilt(process.argv.includes('--force'));
  process.stdout.write(built ? 'web: built web/dist\n' : 'web: web/dist is up to date\n');
}
