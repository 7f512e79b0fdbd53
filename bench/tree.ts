import { log, type Bench } from './context.js';
import { HttpClient, type Sent } from './http-client.js';
import { Seeder, type Area } from './seed.js';
import { figure } from './report.js';
import { latencyOf, timeSequential, type Latency } from './stats.js';

/** 1/16 of the names, a handful, none, and 1/10 or more of them: the result page is capped by the server. */
const QUERIES = ['kilo', '4242', 'xyzzy', '-00'];
const WARMUP = 4;

interface FolderTree {
  files: unknown[];
  folders: FolderTree[];
}

const entriesIn = (tree: FolderTree): number =>
  tree.files.length + tree.folders.length + tree.folders.reduce((sum, child) => sum + entriesIn(child), 0);

interface Timed {
  coffer: Latency;
  /** The raw server answering the very same bodies: the floor of transport and serialization. */
  floor: Latency;
}

interface Scale {
  files: number;
  wholeSearch: Timed;
  scopedSearch: Timed;
  subtree: Timed & { entries: number; bytes: number };
}

/** Times the requests `sent(i)` on Coffer, then the same answers echoed by the raw server, `samples` of each. */
async function timed(b: Bench, name: string, variants: Sent[]): Promise<Timed> {
  const coffer = new HttpClient(b.coffer.origin, 1);
  const raw = new HttpClient(b.raw.origin, 1);
  try {
    for (const [v, sent] of variants.entries()) {
      const reply = await coffer.send(sent);
      if (reply.status !== 200) throw new Error(`${name}: ${sent.path} answered ${reply.status}: ${reply.body}`);
      const stored = await raw.send({ method: 'PUT', path: `/fixture/${name}-${v}`, body: reply.body });
      if (stored.status !== 200) throw new Error(`raw server refused fixture ${name}-${v}`);
    }
    const run = (client: HttpClient, path: (i: number) => string) =>
      timeSequential(b.plan.samples, WARMUP, async (i) => {
        const sent = variants[i % variants.length]!;
        const reply = await client.send({ ...sent, path: path(i) });
        if (reply.status !== 200) throw new Error(`${name}: ${path(i)} answered ${reply.status}`);
      });
    const cofferSamples = await run(coffer, (i) => variants[i % variants.length]!.path);
    const floorSamples = await run(raw, (i) => `/fixture/${name}-${i % variants.length}`);
    return { coffer: latencyOf(cofferSamples), floor: latencyOf(floorSamples) };
  } finally {
    coffer.close();
    raw.close();
  }
}

function searches(b: Bench, area: Area | null): Sent[] {
  return QUERIES.map((query) => ({
    method: 'POST',
    path: '/api/search',
    headers: { authorization: `token ${b.userToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(area ? { query, folderId: area.id, recursive: true } : { query }),
  }));
}

async function measure(b: Bench, seeder: Seeder): Promise<Scale> {
  const area = seeder.areas[0]!;
  const files = seeder.fileCount;
  log(`search and subtree at ${files} files: ${b.plan.samples} timed requests each`);
  const wholeSearch = await timed(b, 'search-whole', searches(b, null));
  const scopedSearch = await timed(b, 'search-scoped', searches(b, area));
  const read: Sent = { path: `/api/folder/${area.id}`, headers: { authorization: `token ${b.userToken}` } };
  const probe = new HttpClient(b.coffer.origin, 1);
  const body = await probe.send(read).finally(() => probe.close());
  const entries = entriesIn(JSON.parse(body.body.toString('utf8')) as FolderTree);
  if (entries !== area.entries) throw new Error(`subtree holds ${entries} entries, expected ${area.entries}`);
  const subtree = { ...(await timed(b, 'subtree', [read])), entries, bytes: body.body.length };
  return { files, wholeSearch, scopedSearch, subtree };
}

const k = (files: number) => `${files / 1000}k files`;

function scaleFigures(b: Bench, s: Scale): void {
  const at = `@ ${k(s.files)}`;
  const ms = (name: string, t: Timed, p: 'p50' | 'p95', below?: number) =>
    figure(`${name} ${p} ${at}`, 'ms', t.coffer[p], 'raw echo', t.floor[p], below ? { below } : null);
  b.figures.push(
    ms('search, whole account', s.wholeSearch, 'p50'),
    ms('search, whole account', s.wholeSearch, 'p95', 50),
    ms('search, one area recursive', s.scopedSearch, 'p50'),
    ms('search, one area recursive', s.scopedSearch, 'p95', 50),
    ms(`folder subtree (${s.subtree.entries} entries)`, s.subtree, 'p50'),
    ms(`folder subtree (${s.subtree.entries} entries)`, s.subtree, 'p95', 250),
  );
}

function growthFigures(b: Bench, small: Scale, large: Scale): void {
  const span = `${k(large.files)} vs ${k(small.files)}`;
  const grow = (name: string, pick: (s: Scale) => Timed) =>
    figure(
      `scaling: ${name} p50, ${span}`,
      'ms',
      pick(large).coffer.p50,
      `p50 @ ${k(small.files)}`,
      pick(small).coffer.p50,
    );
  b.figures.push(
    grow('search, whole account', (s) => s.wholeSearch),
    grow('search, one area', (s) => s.scopedSearch),
    grow('folder subtree', (s) => s.subtree),
  );
}

/** 4., 5. and 7. Search and the folder subtree, at each scale of the plan as the data set grows. */
export async function treeAndSearch(b: Bench): Promise<void> {
  const seeder = new Seeder(b);
  const scales: Scale[] = [];
  for (const files of b.plan.scales) {
    log(`seeding up to ${files} files in ${files / (b.plan.scales.at(-1)! / b.plan.folders)} folders`);
    await seeder.growTo(files);
    const scale = await measure(b, seeder);
    scales.push(scale);
    scaleFigures(b, scale);
  }
  b.details.treeAndSearch = { queries: QUERIES, samples: b.plan.samples, seedFilesPerSecond: seeder.rates, scales };
  const [small, large] = [scales[0], scales.at(-1)];
  if (small && large && small !== large) growthFigures(b, small, large);
}
