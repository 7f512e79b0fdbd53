import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { tempDir } from '../support/temp.js';

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
    const child = spawn(LITMUS, [url, user, pass], { env: { ...process.env, TESTS: suite }, cwd });
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
  let token: string;
  let cwd: string;

  beforeAll(async () => {
    t = await makeHttp({ checkAnswers: false });
    const { token: session } = await t.user('lit');
    const created = await t.request('POST', '/api/token', { token: session, json: { name: 'litmus', scope: 'dav' } });
    expect(created.status).toBe(201);
    token = created.body.token;
    t.scan.addToken(token);
    cwd = tempDir('litmus-');
  });
  afterAll(async () => t?.close());

  for (const suite of ['basic', 'copymove', 'props', 'locks', 'http']) {
    it(`passes the ${suite} suite`, { timeout: 120_000 }, async () => {
      const verdict = await runLitmus(`${t.url}/dav/`, 'lit', token, suite, cwd);
      if (verdict.failed !== 0) console.log(verdict.output);
      expect(verdict.failures.filter((line) => line.includes('FAIL'))).toEqual([]);
      expect(verdict.failed).toBe(0);
      expect(verdict.passed).toBeGreaterThan(0);
    });
  }
});
