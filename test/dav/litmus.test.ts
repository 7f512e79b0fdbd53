import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';
import { davTokenStartingWithDash } from '../support/dav-token.js';

const LITMUS = '/usr/bin/litmus';
const available = existsSync(LITMUS);
if (!available) console.log('litmus tests skipped: install Debian\'s litmus (apt-get install litmus) to run them');

/** One litmus suite's verdict, as its summary line and its FAIL/WARNING lines tell. */
interface Verdict {
  suite: string;
  passed: number;
  failed: number;
  warnings: number;
  failures: string[];
  output: string;
}

function runLitmus(url: string, user: string, pass: string, suite: string, cwd: string): Promise<Verdict> {
  return new Promise((resolve, reject) => {
    // `--` ends litmus's options: a token may begin with '-', which would be taken for one.
    const child = spawn(LITMUS, ['--', url, user, pass], { env: { ...process.env, TESTS: suite }, cwd });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      // "<- summary for `basic': of 16 tests run: 16 passed, 0 failed. 100.0%" and "-> 1 warning was issued."
      const summary = /summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(output);
      const warnings = /-> (\d+) warnings? (?:was|were) issued/.exec(output);
      resolve({
        suite,
        passed: summary ? Number(summary[3]) : 0,
        failed: summary ? Number(summary[4]) : -1,
        warnings: warnings ? Number(warnings[1]) : 0,
        failures: output.split('\n').filter((line) => /FAIL|WARNING/.test(line)),
        output,
      });
    });
  });
}

describe.skipIf(!available)('litmus, the WebDAV test suite, against /dav/', () => {
  let t: HttpTest;
  let cwd: string;

  beforeAll(async () => {
    const logger = process.env['DAV_DEBUG']
      ? { info() {}, warn() {}, error: (o: unknown, m: string) => console.error(m, o) }
      : undefined;
    t = await makeHttp({ checkAnswers: false, ...(logger && { logger }) });
    cwd = tempDir('litmus-');
  });
  afterAll(async () => t?.close());

  for (const suite of ['basic', 'copymove', 'props', 'locks', 'http']) {
    it(`passes the ${suite} suite`, { timeout: 120_000 }, async () => {
      // Each suite as a user of its own: a suite that fails leaves its collection behind, which the next would trip on.
      const { token: session } = await t.user(suite);
      const token = await davTokenStartingWithDash(t, session);
      const verdict = await runLitmus(`${t.url}/dav/`, suite, token, suite, cwd);
      console.log(`litmus ${suite}: ${verdict.passed} passed, ${verdict.failed} failed, ${verdict.warnings} warnings`);
      for (const line of verdict.failures) console.log(line);
      if (verdict.failed !== 0) console.log(verdict.output.slice(-3000));
      expect(verdict.failures.filter((line) => line.includes('FAIL'))).toEqual([]);
      expect(verdict.failed).toBe(0);
      expect(verdict.passed).toBeGreaterThan(0);
    });
  }
});
