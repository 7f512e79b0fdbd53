import { spawnSync } from 'node:child_process';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { streamedMultipart } from './multipart.js';
import { cpuSecondsOf, peakGrowth, type Child } from './processes.js';
import { figure } from './report.js';
import { TUS_CHUNK_BYTES, tusSource, tusUpload } from './resumable.js';
import { GiB, MiB, nowMs } from './stats.js';

const TRANSFER_TIMEOUT_MS = 15 * 60_000;

interface Upload {
  mibPerSec: number;
  seconds: number;
  /** Server CPU seconds (all threads) per GiB: the cost, whatever else the machine was doing. */
  cpuPerGiB: number;
  rssGrowthBytes: number;
  /** The JSON answer of the server. */
  answer: { id?: string; size?: string };
}

/** Flushes dirty pages so one upload's write-back never slows the next one down. */
function flushDisk(): void {
  spawnSync('sync', { timeout: 120_000 });
}

/** One generated upload of `bytes` in one multipart request, timed, with the server's peak RSS growth. */
export async function upload(
  server: Child,
  path: string,
  token: string | null,
  bytes: number,
  fields: Record<string, string> = {},
): Promise<Upload> {
  const client = new HttpClient(server.origin, 1);
  try {
    return await measured(server, bytes, async () => {
      const form = streamedMultipart({ name: 'bench-upload.bin', ...fields }, 'bench-upload.bin', bytes);
      const headers = {
        'content-type': form.contentType,
        'content-length': form.length,
        ...(token === null ? {} : { authorization: `token ${token}` }),
      };
      const reply = await client.stream(path, headers, form.body(), TRANSFER_TIMEOUT_MS);
      if (reply.status !== 201) throw new Error(`upload to ${server.name} answered ${reply.status}: ${reply.body}`);
      return JSON.parse(reply.body.toString('utf8')) as Upload['answer'];
    });
  } finally {
    client.close();
  }
}

/** One resumable upload (tus-js-client, in chunks of `chunk` bytes), measured as `upload` is. */
async function resumableUpload(server: Child, token: string, bytes: number, chunk: number): Promise<Upload> {
  const data = await tusSource(bytes);
  const send = async () => ({ id: await tusUpload(server.origin, token, data, chunk), size: String(bytes) });
  return measured(server, bytes, send);
}

/** The raw server's uploads of the round, removed as Coffer's are. */
async function removeRawUploads(server: Child): Promise<void> {
  const client = new HttpClient(server.origin, 1);
  try {
    const reply = await client.send({ method: 'DELETE', path: '/upload' });
    if (reply.status !== 200) throw new Error(`the raw server answered ${reply.status} to removing its uploads`);
  } finally {
    client.close();
  }
}

/** Runs one upload, timed, with the server's CPU and its peak RSS growth while it ran. */
async function measured(server: Child, bytes: number, send: () => Promise<Upload['answer']>): Promise<Upload> {
  flushDisk();
  const cpuBefore = cpuSecondsOf(server.pid);
  const started = nowMs();
  const { result: answer, growthBytes } = await peakGrowth(server.pid, send);
  const seconds = (nowMs() - started) / 1000;
  const cpu = cpuSecondsOf(server.pid) - cpuBefore;
  return {
    mibPerSec: bytes / MiB / seconds,
    seconds,
    cpuPerGiB: cpu / (bytes / GiB),
    rssGrowthBytes: growthBytes,
    answer,
  };
}

interface Download {
  mibPerSec: number;
  cpuPerGiB: number;
}

/** One download of `path`: MiB/s of the file's bytes, and the server's CPU per GiB. */
export async function download(server: Child, path: string, token: string | null, bytes: number): Promise<Download> {
  const client = new HttpClient(server.origin, 1);
  const headers = token === null ? {} : { authorization: `token ${token}` };
  try {
    const cpuBefore = cpuSecondsOf(server.pid);
    const started = nowMs();
    const reply = await client.drain(path, headers, TRANSFER_TIMEOUT_MS);
    const seconds = (nowMs() - started) / 1000;
    const cpu = cpuSecondsOf(server.pid) - cpuBefore;
    if (reply.status !== 200 || reply.bytes < bytes) {
      throw new Error(`download from ${server.name} answered ${reply.status} with ${reply.bytes} bytes`);
    }
    return { mibPerSec: bytes / MiB / seconds, cpuPerGiB: cpu / (bytes / GiB) };
  } finally {
    client.close();
  }
}

const fastest = <T extends { mibPerSec: number }>(runs: T[]) =>
  runs.reduce((a, b) => (b.mibPerSec > a.mibPerSec ? b : a));
const mostMemory = (runs: Upload[]) => Math.max(...runs.map((run) => run.rssGrowthBytes));
/**
 * CPU per GiB of a variant's cheapest round, not of its fastest: the fastest raw pipe is often its first, cold round
 * (JIT and page cache still warming, more CPU), so pairing fastest with fastest flattered Coffer by up to 0.2.
 */
const cheapest = (runs: { cpuPerGiB: number }[]) => Math.min(...runs.map((run) => run.cpuPerGiB));

/** The size of each untimed warm-up upload. */
const WARM_UP_BYTES = 256 * MiB;

/**
 * One untimed upload of each kind, and a download of each, before the timed rounds, on both servers alike: the
 * rounds then compare servers in their steady state, as a long-running server is. Without it, V8 was still compiling
 * Coffer's upload path in its second to fourth timed rounds (its optimising compiler's threads, which count as server
 * CPU: 30 to 120 ms per GiB, sampled with `perf`), while the raw pipe, a few lines, was compiled within its first.
 */
async function warmUp(b: Bench, bytes: number): Promise<void> {
  log(`transfers: warming up (${bytes / MiB} MiB up and down, each kind, untimed)`);
  const stored = await upload(b.coffer, '/api/file', b.userToken, bytes);
  await upload(b.raw, '/upload', null, bytes);
  await upload(b.raw, '/upload?durable=1', null, bytes);
  const resumed = await resumableUpload(b.coffer, b.userToken, bytes, TUS_CHUNK_BYTES);
  await download(b.coffer, `/api/file/${stored.answer.id!}/content`, b.userToken, bytes);
  await download(b.raw, '/download', null, bytes);
  for (const id of [stored.answer.id!, resumed.answer.id!]) await b.api.deleteFile(b.userToken, id);
  await removeRawUploads(b.raw);
}

/** `items` rotated left by `by`: round after round, each variant takes its turn at the front. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/**
 * 2. and 3. A large upload and its download, against raw node:http piping to and from a file on the same disk.
 * Each round runs every variant once, in turn, and the order rotates from round to round: on this machine
 * whichever upload follows two others often ran at half speed (the disk, not the server: the raw pipe did too), so
 * with at least as many rounds as variants (a full run: 5 rounds, 4 uploads) every variant gets its turn first. The
 * best rate of each counts, and the largest RSS growth.
 */
export async function transfers(b: Bench): Promise<void> {
  const { uploadBytes: bytes, transferRounds: rounds } = b.plan;
  const label = `${bytes / MiB} MiB`;
  const up = { raw: [] as Upload[], rawDurable: [] as Upload[], coffer: [] as Upload[], tus: [] as Upload[] };
  const down = { raw: [] as Download[], coffer: [] as Download[] };
  let stored = '';
  const resumed: string[] = [];
  const uploads = {
    raw: async () => void up.raw.push(await upload(b.raw, '/upload', null, bytes)),
    rawDurable: async () => void up.rawDurable.push(await upload(b.raw, '/upload?durable=1', null, bytes)),
    coffer: async () => {
      const coffer = await upload(b.coffer, '/api/file', b.userToken, bytes);
      if (coffer.answer.size !== String(bytes) || !coffer.answer.id) {
        throw new Error(`Coffer stored ${coffer.answer.size} bytes of ${bytes}`);
      }
      up.coffer.push(coffer);
      stored = coffer.answer.id;
    },
    tus: async () => {
      const tus = await resumableUpload(b.coffer, b.userToken, bytes, TUS_CHUNK_BYTES);
      up.tus.push(tus);
      resumed.push(tus.answer.id!);
    },
  };
  const downloads = {
    raw: async () => void down.raw.push(await download(b.raw, '/download', null, bytes)),
    coffer: async () => {
      down.coffer.push(await download(b.coffer, `/api/file/${stored}/content`, b.userToken, bytes));
    },
  };
  await warmUp(b, Math.min(bytes, WARM_UP_BYTES));
  for (let round = 1; round <= rounds; round++) {
    const upOrder = rotated(['raw', 'rawDurable', 'coffer', 'tus'] as const, round - 1);
    const downOrder = rotated(['raw', 'coffer'] as const, round - 1);
    log(`transfers, round ${round}/${rounds}: ${label} up to ${upOrder.join(', ')}, down from ${downOrder.join(', ')}`);
    for (const name of upOrder) await uploads[name]();
    for (const name of downOrder) await downloads[name]();
    // Every round's uploads go before the next round, on both servers alike, outside the timed uploads.
    await b.api.deleteFile(b.userToken, stored);
    for (const id of resumed.splice(0)) await b.api.deleteFile(b.userToken, id);
    await removeRawUploads(b.raw);
  }
  b.details.transfers = { bytes, rounds, upload: up, download: down };

  const [raw, rawDurable, coffer] = [fastest(up.raw), fastest(up.rawDurable), fastest(up.coffer)];
  const tus = fastest(up.tus);
  const chunk = `${TUS_CHUNK_BYTES / MiB} MiB`;
  const [rawDown, cofferDown] = [fastest(down.raw), fastest(down.coffer)];
  b.figures.push(
    figure(`upload ${label}`, 'MiB/s', coffer.mibPerSec, 'raw pipe', raw.mibPerSec, { atLeastRatio: 0.7 }),
    figure(`upload ${label} vs raw durable (context)`, 'MiB/s', coffer.mibPerSec, 'raw durable', rawDurable.mibPerSec),
    figure('upload server CPU per GiB', 's', cheapest(up.coffer), 'raw pipe', cheapest(up.raw)),
    figure('upload server CPU per GiB vs raw durable (context)', 's', cheapest(up.coffer), 'raw durable', cheapest(up.rawDurable)),
    figure('upload peak RSS growth', 'MB', mostMemory(up.coffer) / 1e6, 'raw pipe growth', mostMemory(up.raw) / 1e6, {
      below: 64,
    }),
    figure(`resumable upload ${label} (tus, ${chunk} chunks)`, 'MiB/s', tus.mibPerSec, 'raw pipe', raw.mibPerSec, {
      atLeastRatio: 0.8,
    }),
    figure(`resumable upload ${label} vs raw durable (context)`, 'MiB/s', tus.mibPerSec, 'raw durable', rawDurable.mibPerSec),
    figure('resumable upload server CPU per GiB', 's', cheapest(up.tus), 'raw pipe', cheapest(up.raw)),
    figure('resumable upload peak RSS growth', 'MB', mostMemory(up.tus) / 1e6, 'raw pipe growth', mostMemory(up.raw) / 1e6, {
      below: 64,
    }),
    figure(`download ${label}`, 'MiB/s', cofferDown.mibPerSec, 'raw createReadStream', rawDown.mibPerSec, {
      atLeastRatio: 0.8,
    }),
    figure('download server CPU per GiB', 's', cheapest(down.coffer), 'raw createReadStream', cheapest(down.raw)),
  );
}
