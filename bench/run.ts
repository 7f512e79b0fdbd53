import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, CofferApi, startCoffer, USER } from './coffer.js';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { loginStorm } from './login-storm.js';
import { planFrom } from './plan.js';
import { killAllChildren, REPO_ROOT, startChild, type Child } from './processes.js';
import { machine, markdownTable, printTable, writeResults } from './report.js';
import { sharePage } from './share-page.js';
import { shareReads } from './share-reads.js';
import { transfers } from './transfer.js';
import { treeAndSearch } from './tree.js';
import { webBytes } from './web-bytes.js';
import { activityCost } from './activity.js';

const RESULTS = join(REPO_ROOT, 'bench', 'results.json');

/** Coffer, a user with a shared file, and the two comparison servers that answer the same share body. */
async function setUp(dir: string, children: Child[]): Promise<Omit<Bench, 'plan' | 'figures' | 'details'>> {
  const coffer = await startCoffer(join(dir, 'coffer'));
  children.push(coffer);
  const api = new CofferApi(new HttpClient(coffer.origin, 4));
  const adminToken = await api.login(ADMIN.username, ADMIN.password);
  await api.createUser(adminToken, USER.username, USER.password);
  const userToken = await api.login(USER.username, USER.password);
  const fileId = await api.uploadSmall(userToken, null, 'shared-note.txt', Buffer.from('a shared note\n'));
  const shareId = await api.share(userToken, 'file', fileId);
  const shareBody = await api.http.json('GET', `/api/share/${shareId}`, undefined, null);

  await mkdir(join(dir, 'raw'));
  const env = { ...process.env, BENCH_DIR: join(dir, 'raw'), SHARE_BODY: JSON.stringify(shareBody) };
  const raw = await startChild('raw node:http', 'bench/servers/raw-http.ts', env);
  children.push(raw);
  const koa = await startChild('bare Koa', 'bench/servers/bare-koa.ts', env);
  children.push(koa);
  return { dir, coffer, raw, koa, api, userToken, shareId };
}

async function main(): Promise<number> {
  const plan = planFrom(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'coffer-bench-'));
  const children: Child[] = [];
  const abort = (why: string, code: number) => {
    console.error(`bench: ${why}; stopping every child process`);
    killAllChildren();
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  const watchdog = setTimeout(() => abort(`over the ${plan.budgetMs / 60_000} minute budget`, 2), plan.budgetMs);
  process.once('SIGINT', () => abort('interrupted', 130));
  const started = Date.now();
  const loadAtStart = loadavg();
  const failures: string[] = [];
  let api: CofferApi | null = null;
  try {
    log(`${plan.mode} run of ${plan.sections.join(', ')}; data under ${dir}; load average ${loadAtStart.map((n) => n.toFixed(2)).join(' ')}`);
    const b: Bench = { plan, figures: [], details: {}, ...(await setUp(dir, children)) };
    api = b.api;
    const { persistence = 'unknown' } = await b.api.health();
    log(`Coffer pid ${b.coffer.pid} on ${b.coffer.origin}, persistence ${persistence}`);
    for (const [key, name, section] of [
      ['reads', 'share reads', shareReads],
      ['transfers', 'upload and download', transfers],
      ['logins', 'login storm', loginStorm],
      ['tree', 'search and folder subtree', treeAndSearch],
      ['page', 'share page', sharePage],
      ['web', 'first-load bytes of the dashboard', webBytes],
      ['activity', 'activity on vs off', activityCost],
    ] as const) {
      if (!plan.sections.includes(key)) continue;
      try {
        await section(b);
      } catch (err) {
        failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
        log(`FAILED ${name}: ${failures.at(-1)}\n${b.coffer.output().slice(-2000)}`);
      }
    }
    printTable(b.figures);
    const seconds = Math.round((Date.now() - started) / 1000);
    await writeResults(RESULTS, {
      machine: machine(plan.mode, persistence, loadAtStart),
      sections: plan.sections,
      seconds,
      failures,
      figures: b.figures,
      details: b.details,
      markdown: markdownTable(b.figures),
    });
    log(`done in ${seconds} s; wrote ${RESULTS}${failures.length ? `; ${failures.length} section(s) failed` : ''}`);
    return failures.length ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    api?.http.close();
    await Promise.all(children.map((child) => child.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('bench: failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    killAllChildren();
    process.exit(1);
  },
);
