import { spawnSync } from 'node:child_process';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { streamedMultipart } from './multipart.js';
import { memoryOf, resetPeak, sleep, type Child } from './processes.js';
import { figure } from './report.js';
import { MiB, nowMs } from './stats.js';

const TRANSFER_TIMEOUT_MS = 15 * 60_000;
const RSS_POLL_MS = 20;

interface Upload {
  mibPerSec: number;
  seconds: number;
  rssGrowthBytes: number;
  /** The JSON answer of the server. */
  answer: { id?: string; size?: string };
}

/** Flushes dirty pages so one upload's write-back never slows the next one down. */
function flushDisk(): void {
  spawnSync('sync', { timeout: 120_000 });
}

/** One generated upload of `bytes`, timed, with the server's peak RSS growth while it ran. */
async function upload(server: Child, path: string, token: string | null, bytes: number): Promise<Upload> {
  flushDisk();
  const client = new HttpClient(server.origin, 1);
  const exactPeak = resetPeak(server.pid);
  const before = memoryOf(server.pid).rssBytes;
  let polledPeak = before;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      polledPeak = Math.max(polledPeak, memoryOf(server.pid).rssBytes);
      await sleep(RSS_POLL_MS);
    }
  })();
  try {
    const form = streamedMultipart({ name: 'bench-upload.bin' }, 'bench-upload.bin', bytes);
    const headers = {
      'content-type': form.contentType,
      'content-length': form.length,
      ...(token === null ? {} : { authorization: `token ${token}` }),
    };
    const started = nowMs();
    const reply = await client.stream(path, headers, form.body(), TRANSFER_TIMEOUT_MS);
    const seconds = (nowMs() - started) / 1000;
    if (reply.status !== 201) throw new Error(`upload to ${server.name} answered ${reply.status}: ${reply.body}`);
    polling = false;
    await poller;
    const peak = exactPeak ? memoryOf(server.pid).peakBytes : polledPeak;
    return {
      mibPerSec: bytes / MiB / seconds,
      seconds,
      rssGrowthBytes: Math.max(0, peak - before),
      answer: JSON.parse(reply.body.toString('utf8')) as Upload['answer'],
    };
  } finally {
    polling = false;
    await poller;
    client.close();
  }
}

/** The best of `runs` downloads of `path`: MiB/s of the file's bytes. */
async function download(server: Child, path: string, token: string | null, bytes: number, runs: number) {
  const client = new HttpClient(server.origin, 1);
  const headers = token === null ? {} : { authorization: `token ${token}` };
  const speeds: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const started = nowMs();
      const reply = await client.drain(path, headers, TRANSFER_TIMEOUT_MS);
      const seconds = (nowMs() - started) / 1000;
      if (reply.status !== 200 || reply.bytes < bytes) {
        throw new Error(`download from ${server.name} answered ${reply.status} with ${reply.bytes} bytes`);
      }
      speeds.push(bytes / MiB / seconds);
    }
  } finally {
    client.close();
  }
  return { best: Math.max(...speeds), runs: speeds };
}

/** 2. and 3. One large upload and its download, against raw node:http piping to and from a file on the same disk. */
export async function transfers(b: Bench): Promise<void> {
  const bytes = b.plan.uploadBytes;
  const label = `${bytes / MiB} MiB`;
  log(`upload: ${label} to raw node:http (plain pipe, then pipe + fsync)`);
  const raw = await upload(b.raw, '/upload', null, bytes);
  const rawFsync = await upload(b.raw, '/upload?fsync=1', null, bytes);
  log(`upload: ${label} to Coffer`);
  const coffer = await upload(b.coffer, '/api/file', b.userToken, bytes);
  if (coffer.answer.size !== String(bytes) || !coffer.answer.id) {
    throw new Error(`Coffer stored ${coffer.answer.size} bytes of ${bytes}`);
  }

  log(`download: ${label}, best of ${b.plan.downloadRuns}, raw then Coffer`);
  const rawDown = await download(b.raw, '/download', null, bytes, b.plan.downloadRuns);
  const cofferDown = await download(b.coffer, `/api/file/${coffer.answer.id}/content`, b.userToken, bytes, b.plan.downloadRuns);
  b.details.transfers = { bytes, upload: { raw, rawFsync, coffer }, download: { raw: rawDown, coffer: cofferDown } };

  b.figures.push(
    figure(`upload ${label}`, 'MiB/s', coffer.mibPerSec, 'raw pipe', raw.mibPerSec, { atLeastRatio: 0.7 }),
    figure(`upload ${label} vs durable raw (context)`, 'MiB/s', coffer.mibPerSec, 'raw pipe + fsync', rawFsync.mibPerSec),
    figure('upload peak RSS growth', 'MB', coffer.rssGrowthBytes / 1e6, 'raw pipe growth', raw.rssGrowthBytes / 1e6, {
      below: 64,
    }),
    figure(`download ${label}`, 'MiB/s', cofferDown.best, 'raw createReadStream', rawDown.best, { atLeastRatio: 0.8 }),
  );
}
