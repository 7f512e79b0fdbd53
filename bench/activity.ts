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

/** One side's rate over all its rounds: every answer it gave over every second it was driven. */
const overall = (runs: Measured[], seconds: number) => runs.reduce((sum, run) => sum + run.ok, 0) / (runs.length * seconds);
/** CPU per request over all rounds (the load generator is on the other core, so this is the process's own work). */
const cpuOverall = (runs: Measured[]) =>
  runs.reduce((sum, run) => sum + run.cpuMicrosPerRequest * run.ok, 0) / Math.max(1, runs.reduce((sum, run) => sum + run.ok, 0));

/**
 * 7. What recording costs a read: two Coffer processes, one with activity (the default) and one with ACTIVITY=off,
 * answer the same share read (`GET /api/share/{id}`, one view event each) and the same download of a 64 KiB shared
 * file (`GET /api/share/{id}/content`, one download event each, written when the body has gone), 50 connections to
 * each, both driven at the same time while pinned to the same core. The scheduler gives each process half of that
 * core, so each one's rate is what its CPU per request allows, measured over the same seconds: whatever else slows the
 * machine (and on this virtual machine one 10 s run moves by 10–20% against the next) slows both alike, where runs in
 * turn compared moments rather than processes. The process with activity also runs its outbox loop, dispatching
 * every event it records. Each side's rate is its answers over all rounds.
 */
export async function activityCost(b: Bench): Promise<void> {
  const { plan } = b;
  const on = await startCoffer(join(b.dir, 'activity-on'), {}, 'coffer (activity on)');
  const off = await startCoffer(join(b.dir, 'activity-off'), { ACTIVITY: 'off' }, 'coffer (activity off)').catch(async (err: unknown) => {
    await on.stop();
    throw err;
  });
  const pinned = pin([on.pid, off.pid], '1') && pin([process.pid], '0');
  if (pinned) log('activity: both Coffer processes pinned to CPU 1, sharing it, the load generator to CPU 0');
  else log('activity: not pinned (BENCH_PIN=off or no taskset): both Coffer processes share the machine\'s cores');
  try {
    const shares = new Map<Child, string>([
      [on, (await sharedOn(on)).shareId],
      [off, (await sharedOn(off)).shareId],
    ]);
    const spec = (server: Child, suffix: string, durationSec: number) => ({
      url: `${server.origin}/api/share/${shares.get(server)}${suffix}`,
      connections: plan.readConnections,
      warmupSec: 0,
      durationSec,
    });
    /** Both processes under the same load at once; each one's answers and CPU over the same seconds. */
    const runBoth = async (suffix: string): Promise<[Measured, Measured]> => {
      await Promise.all([load(spec(on, suffix, plan.readWarmupSeconds)), load(spec(off, suffix, plan.readWarmupSeconds))]);
      const cpuBefore = [cpuSecondsOf(on.pid), cpuSecondsOf(off.pid)] as const;
      const results = await Promise.all([load(spec(on, suffix, plan.readSeconds)), load(spec(off, suffix, plan.readSeconds))]);
      // The events of the last reads are dispatched within the outbox's 50 ms gathering: their CPU belongs to them.
      await sleep(300);
      const cpuAfter = [cpuSecondsOf(on.pid), cpuSecondsOf(off.pid)] as const;
      return [on, off].map((server, i) => {
        const result = results[i]!;
        if (result.non2xx > 0 || result.errors > 0) log(`  ${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        return { ...result, cpuMicrosPerRequest: ((cpuAfter[i]! - cpuBefore[i]!) * 1e6) / Math.max(1, result.ok) };
      }) as [Measured, Measured];
    };
    const runs = { readOn: [] as Measured[], readOff: [] as Measured[], downOn: [] as Measured[], downOff: [] as Measured[] };
    for (let round = 1; round <= plan.activityRounds; round++) {
      log(`activity on and off at once, round ${round}/${plan.activityRounds}: share reads, then downloads, ${plan.readSeconds} s each`);
      const [readOn, readOff] = await runBoth('');
      runs.readOn.push(readOn);
      runs.readOff.push(readOff);
      const [downOn, downOff] = await runBoth('/content');
      runs.downOn.push(downOn);
      runs.downOff.push(downOff);
    }
    log(`keeping and dispatching events in memory, in this process: ${plan.activityRounds} rounds of ${EVENT_ROUNDS_SIZE}`);
    const perEvent = await eventCost(plan.activityRounds);
    b.details.activity = { connections: plan.readConnections, seconds: plan.readSeconds, pinned, runs, perEvent };
    const seconds = plan.readSeconds;
    const readCpu = cpuOverall(runs.readOff);
    b.figures.push(
      figure('share read rate, activity on vs off', 'req/s', overall(runs.readOn, seconds), 'ACTIVITY=off', overall(runs.readOff, seconds), { atLeastRatio: 0.95 }),
      figure('64 KiB download rate, activity on vs off', 'req/s', overall(runs.downOn, seconds), 'ACTIVITY=off', overall(runs.downOff, seconds), { atLeastRatio: 0.95 }),
      figure('CPU per share read, activity on vs off', 'µs', cpuOverall(runs.readOn), 'ACTIVITY=off', readCpu),
      figure('CPU per 64 KiB download, activity on vs off', 'µs', cpuOverall(runs.downOn), 'ACTIVITY=off', cpuOverall(runs.downOff)),
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
