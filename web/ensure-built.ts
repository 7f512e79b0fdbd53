import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds web/dist when it is missing or was built from other sources: run by `npm install` (prepare), `npm start`
 * (prestart) and the test run (globalSetup), so a fresh clone needs no extra command. "Other sources" is a hash
 * of everything under web/ except dist, plus the lock file (a new Vite or Preact changes the output too).
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

/** Returns true when it built. */
export async function ensureWebBuilt(force = false): Promise<boolean> {
  if (!force && isWebBuildCurrent()) return false;
  const hash = sourcesHash();
  const { build } = await import('vite');
  await build({ configFile: join(WEB, 'vite.config.ts') });
  writeFileSync(STAMP, hash);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await ensureWebBuilt(process.argv.includes('--force'));
  process.stdout.write(built ? 'web: built web/dist\n' : 'web: web/dist is up to date\n');
}
