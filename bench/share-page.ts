import { log, type Bench } from './context.js';
import { load, type LoadResult } from './load.js';
import { peakGrowth } from './processes.js';
import { figure } from './report.js';
import { download, upload } from './transfer.js';
import { MiB } from './stats.js';

/** Issue 14's budget for a first visit: the page and every asset it names, compressed. */
const FIRST_VISIT_BUDGET_KB = 150;
/** The folder the zip is made of: this many files, the upload size in all. */
const ZIP_FILES = 8;

const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

/** The bytes on the wire of a first visit with brotli: the page, then each asset its HTML names. */
async function firstVisitBytes(origin: string, page: string): Promise<Record<string, number>> {
  const wire = async (path: string) => {
    const res = await fetch(origin + path, { headers: { 'accept-encoding': 'br' } });
    const text = await res.text();
    return { bytes: Number(res.headers.get('content-length') ?? Buffer.byteLength(text)), text };
  };
  const html = await wire(page);
  const sizes: Record<string, number> = { page: html.bytes };
  for (const [, asset] of html.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
    sizes[asset!] = (await wire(asset!)).bytes;
  }
  return sizes;
}

/**
 * 5. The share page: /s/{id} against the JSON read of the same share (both count a view), the bytes of a first
 * visit, and a folder of the upload size as one streamed .zip against the download of one file that size, with the
 * server's peak RSS growth while it zips.
 */
export async function sharePage(b: Bench): Promise<void> {
  const { plan } = b;
  const rate = async (path: string) => {
    const spec = { url: `${b.coffer.origin}${path}`, connections: plan.readConnections, warmupSec: 0 };
    await load({ ...spec, durationSec: plan.readWarmupSeconds });
    return load({ ...spec, durationSec: plan.readSeconds });
  };
  const runs = { page: [] as LoadResult[], json: [] as LoadResult[] };
  for (let round = 1; round <= plan.readRounds; round++) {
    log(`share page, round ${round}/${plan.readRounds}: /s/{id} and /api/share/{id}, ${plan.readSeconds} s each`);
    runs.page.push(await rate(`/s/${b.shareId}`));
    runs.json.push(await rate(`/api/share/${b.shareId}`));
  }
  const [page, json] = [best(runs.page), best(runs.json)];
  const visit = await firstVisitBytes(b.coffer.origin, `/s/${b.shareId}`);
  const visitKb = Object.values(visit).reduce((a, c) => a + c, 0) / 1024;

  const bytes = b.plan.uploadBytes;
  const folderId = await b.api.createFolder(b.userToken, 'bench-zip', null);
  log(`share page: uploading ${bytes / MiB} MiB as ${ZIP_FILES} files into a folder, and as one file`);
  for (let i = 0; i < ZIP_FILES; i++) {
    await upload(b.coffer, '/api/file', b.userToken, bytes / ZIP_FILES, { folderId, name: `part-${i}.bin` });
  }
  const single = (await upload(b.coffer, '/api/file', b.userToken, bytes)).answer.id!;
  const folderShare = await b.api.share(b.userToken, 'folder', folderId);
  const zips = [];
  const files = [];
  for (let round = 1; round <= b.plan.transferRounds; round++) {
    log(`share page, round ${round}/${b.plan.transferRounds}: ${bytes / MiB} MiB zipped, and as one file`);
    zips.push(await peakGrowth(b.coffer.pid, () => download(b.coffer, `/s/${folderShare}/archive`, null, bytes)));
    files.push(await download(b.coffer, `/api/file/${single}/content`, b.userToken, bytes));
  }
  await b.api.deleteFile(b.userToken, single);
  const zip = zips.reduce((a, c) => (c.result.mibPerSec > a.result.mibPerSec ? c : a));
  const file = files.reduce((a, c) => (c.mibPerSec > a.mibPerSec ? c : a));
  const zipGrowth = Math.max(...zips.map((z) => z.growthBytes));
  b.details.sharePage = { page: runs.page, json: runs.json, firstVisit: visit, zips, files };

  const label = `${bytes / MiB} MiB`;
  b.figures.push(
    figure('share page rate vs JSON share read', 'req/s', page.rps, 'GET /api/share/{id}', json.rps, {
      atLeastRatio: 0.5,
    }),
    figure('share page first visit (br)', 'KB', visitKb, 'budget', FIRST_VISIT_BUDGET_KB, {
      below: FIRST_VISIT_BUDGET_KB,
    }),
    figure(`zip of a ${label} folder`, 'MiB/s', zip.result.mibPerSec, 'one-file download', file.mibPerSec, {
      atLeastRatio: 0.7,
    }),
    figure('zip peak RSS growth', 'MB', zipGrowth / 1e6, 'budget', 64, { below: 64 }),
  );
}
