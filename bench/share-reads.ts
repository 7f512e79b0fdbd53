import { log, type Bench } from './context.js';
import { load, type LoadResult } from './load.js';
import { cpuSecondsOf, type Child } from './processes.js';
import { figure } from './report.js';

interface Measured extends LoadResult {
  /** CPU time the server spent per answered request: robust where other processes steal the cores. */
  cpuMicrosPerRequest: number;
}

/** The best of the rounds (highest rate, with the p99 and CPU cost of that same round). */
const best = (runs: Measured[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

/**
 * 1. GET /api/share/{id} (public, counts a view) at 50 connections, against bare Koa and raw node:http answering
 * the same body. The three run in turn, round after round, so a burst of outside load hits them all alike.
 */
export async function shareReads(b: Bench): Promise<void> {
  const { plan } = b;
  const path = `/api/share/${b.shareId}`;
  const run = async (server: Child): Promise<Measured> => {
    const spec = { url: `${server.origin}${path}`, connections: plan.readConnections, warmupSec: 0 };
    await load({ ...spec, durationSec: plan.readWarmupSeconds });
    const cpuBefore = cpuSecondsOf(server.pid);
    const result = await load({ ...spec, durationSec: plan.readSeconds });
    const cpu = cpuSecondsOf(server.pid) - cpuBefore;
    if (result.non2xx > 0 || result.errors > 0) {
      log(`  ${server.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors (not counted as served)`);
    }
    return { ...result, cpuMicrosPerRequest: (cpu * 1e6) / Math.max(1, result.ok) };
  };
  const runs = { raw: [] as Measured[], koa: [] as Measured[], coffer: [] as Measured[] };
  for (let round = 1; round <= plan.readRounds; round++) {
    log(`share reads, round ${round}/${plan.readRounds}: raw, Koa, Coffer, ${plan.readSeconds} s each`);
    runs.raw.push(await run(b.raw));
    runs.koa.push(await run(b.koa));
    runs.coffer.push(await run(b.coffer));
  }
  const [raw, koa, coffer] = [best(runs.raw), best(runs.koa), best(runs.coffer)];
  b.details.shareReads = { connections: plan.readConnections, seconds: plan.readSeconds, runs };

  b.figures.push(
    figure('share read rate vs bare Koa', 'req/s', coffer.rps, 'bare Koa', koa.rps, { atLeastRatio: 0.6 }),
    figure('share read rate vs raw', 'req/s', coffer.rps, 'raw node:http', raw.rps),
    figure('bare Koa rate vs raw (context)', 'req/s', koa.rps, 'raw node:http', raw.rps),
    figure('share read p99', 'ms', coffer.p99Ms, 'bare Koa p99', koa.p99Ms),
    figure('share read server CPU per request', 'µs', coffer.cpuMicrosPerRequest, 'bare Koa', koa.cpuMicrosPerRequest),
  );
}
