import { join } from 'node:path';
import { ADMIN, CofferApi, startCoffer, USER } from './coffer.js';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { load, type LoadResult } from './load.js';
import { spawnSync } from 'node:child_process';
import { EVENTS as EVENT_ROUNDS_SIZE, eventCost } from './activity-events.js';
import { cpuSecondsOf, sleep, type Child } from './processes.js';
import { figure } from './report.js';

/** A Coffer process of its own with a user and one shared file (64 KiB), for the same reads as the other. */
async function sharedOn(server: Child): Promise<{ shareId: string }> {
  const api = new CofferApi(new HttpClient(server.origin, 4));
  const admin = await api.login(ADMIN.username, ADMIN.password);
  await api.createUser(admin, USER.username, USER.password);
  const token = await api.login(USER.username, USER.password);
  const fileId = await api.uploadSmall(token, null, 'note.bin', Buffer.alloc(64 * 1024, 7));
  return { shareId: await api.share(token, 'file', fileId) };
}

type Measured = LoadResult & { cpuMicrosPerRequest: number };

const best = (runs: Measured[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
/** CPU per request is steadier than the rate (the load generator shares the two cores): each side's least counts. */
const leastCpu = (runs: Measured[]) => Math.min(...runs.map((run) => run.cpuMicrosPerRequest));

/**
 * 7. What recording costs a read: two Coffer processes, one with activity (the default) and one with ACTIVITY=off,
 * answer the same share read (`GET /api/share/{id}`, one view event each) and the same download of a 64 KiB shared
 * file (`GET /api/share/{id}/content`, one download event each, written when the body has gone), at 50 connections,
 * in turn round after round. The process with activity also runs its outbox loop, dispatching every event it records.
 */
export async function activityCost(b: Bench): Promise<void> {
  const { plan } = b;
  const on = await startCoffer(join(b.dir, 'activity-on'), {}, 'coffer (activity on)');
  const off = await startCoffer(join(b.dir, 'activity-off'), { ACTIVITY: 'off' }, 'coffer (activity off)').catch(async (err: unknown) => {
    await on.stop();
    throw err;
  });
  const pinned = pin([on.pid, off.pid], '1') && pin([process.pid], '0');
  if (pinned) log('activity: both Coffer processes pinned to CPU 1, the load generator to CPU 0');
  try {
    const shares = new Map<Child, string>([
      [on, (await sharedOn(on)).shareId],
      [off, (await sharedOn(off)).shareId],
    ]);
    const run = async (server: Child, suffix: string): Promise<Measured> => {
      const spec = { url: `${server.origin}/api/share/${shares.get(server)}${suffix}`, connections: plan.readConnections, warmupSec: 0 };
      await load({ ...spec, durationSec: plan.readWarmupSeconds });
      const cpuBefore = cpuSecondsOf(server.pid);
      const result = await load({ ...spec, durationSec: plan.readSeconds });
      // The events of the last reads are dispatched within the outbox's 50 ms gathering: their CPU belongs to them.
      await sleep(300);
      const cpuMicrosPerRequest = ((cpuSecondsOf(server.pid) - cpuBefore) * 1e6) / Math.max(1, result.ok);
      if (result.non2xx > 0 || result.errors > 0) log(`  ${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return { ...result, cpuMicrosPerRequest };
    };
    const runs = { readOn: [] as Measured[], readOff: [] as Measured[], downOn: [] as Measured[], downOff: [] as Measured[] };
    for (let round = 1; round <= plan.activityRounds; round++) {
      log(`activity on vs off, round ${round}/${plan.activityRounds}: share reads, then downloads, ${plan.readSeconds} s each`);
      // The order turns each round, so neither side always goes first.
      const order = round % 2 ? [on, off] : [off, on];
      for (const server of order) (server === on ? runs.readOn : runs.readOff).push(await run(server, ''));
      for (const server of order) (server === on ? runs.downOn : runs.downOff).push(await run(server, '/content'));
    }
    log(`keeping and dispatching events in memory, in this process: ${plan.activityRounds} rounds of ${EVENT_ROUNDS_SIZE}`);
    const perEvent = await eventCost(plan.activityRounds);
    b.details.activity = { connections: plan.readConnections, seconds: plan.readSeconds, runs, perEvent };
    const readCpu = leastCpu(runs.readOff);
    b.figures.push(
      figure('share read rate, activity on vs off', 'req/s', best(runs.readOn).rps, 'ACTIVITY=off', best(runs.readOff).rps, { atLeastRatio: 0.95 }),
      figure('64 KiB download rate, activity on vs off', 'req/s', best(runs.downOn).rps, 'ACTIVITY=off', best(runs.downOff).rps, { atLeastRatio: 0.95 }),
      figure('CPU per share read, activity on vs off', 'µs', leastCpu(runs.readOn), 'ACTIVITY=off', readCpu),
      figure('CPU per 64 KiB download, activity on vs off', 'µs', leastCpu(runs.downOn), 'ACTIVITY=off', leastCpu(runs.downOff)),
      // Against a share read's CPU: what one read's event adds to it, in memory (keep + dispatch), which must stay a
      // small share of the 5% the rate may lose.
      figure('keep + dispatch one event in memory', 'µs', perEvent.keepMicros + perEvent.dispatchMicros, 'CPU per share read, off', readCpu, { below: 5 }),
    );
  } finally {
    if (pinned) pin([process.pid], '0-1023');
    await Promise.all([on.stop(), off.stop()]);
  }
}

/**
 * Puts every thread of the processes on the CPUs `cpus` names (Linux `taskset`). The two sides of the comparison then
 * run on one core of their own in turn, apart from the load generator, instead of wherever the scheduler moves the
 * three: the ratio measures the cost, not where the threads landed. False, changing nothing, where it cannot.
 */
function pin(pids: readonly number[], cpus: string): boolean {
  if (process.env.BENCH_PIN === 'off') return false;
  return pids.every((pid) => spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' }).status === 0);
}
