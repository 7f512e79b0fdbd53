import { USER } from './coffer.js';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { load, type LoadResult } from './load.js';
import { runScript, sleep } from './processes.js';
import { figure } from './report.js';
import { latencyOf, nowMs } from './stats.js';

const PROBE_INTERVAL_MS = 10;
const IDLE_PROBE_MS = 3_000;

interface Verified {
  verified: number;
  seconds: number;
  perSecond: number;
}

/** GET /health one at a time, every 10 ms, until `done` settles or `maxMs` passes: one latency sample per request. */
async function probeHealth(origin: string, done: Promise<unknown>, maxMs: number): Promise<number[]> {
  const client = new HttpClient(origin, 1);
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => {});
  const deadline = nowMs() + maxMs;
  const samples: number[] = [];
  try {
    while (!finished && nowMs() < deadline) {
      const started = nowMs();
      const reply = await client.send({ path: '/health', timeoutMs: 10_000 });
      if (reply.status !== 200) throw new Error(`GET /health answered ${reply.status} during the login storm`);
      samples.push(nowMs() - started);
      await sleep(PROBE_INTERVAL_MS);
    }
  } finally {
    client.close();
  }
  return samples;
}

/**
 * 6. Logins per second against argon2id verifications per second (same parameters, same concurrency, own
 * process), and how GET /health answers while the logins hash: hashing must never block the event loop. The two
 * alternate, round after round; the best round of each counts, and every /health sample of a kind is pooled.
 */
export async function loginStorm(b: Bench): Promise<void> {
  const { loginConcurrency: concurrency, loginSeconds: seconds, loginRounds: rounds } = b.plan;
  log(`login storm: idle /health for ${IDLE_PROBE_MS / 1000} s`);
  const idle = latencyOf(await probeHealth(b.coffer.origin, sleep(IDLE_PROBE_MS), IDLE_PROBE_MS));
  const logins: LoadResult[] = [];
  const verifies: Verified[] = [];
  const during: number[] = [];
  const beside: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    log(`login storm, round ${round}/${rounds}: ${concurrency} concurrent logins, then raw argon2, ${seconds} s each`);
    const storm = load({
      url: `${b.coffer.origin}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USER.username, password: USER.password }),
      connections: concurrency,
      durationSec: seconds,
      warmupSec: 1,
    });
    during.push(...(await probeHealth(b.coffer.origin, storm, (seconds + 30) * 1000)));
    const result = await storm;
    if (result.non2xx > 0 || result.errors > 0) {
      log(`  logins: ${result.non2xx} non-2xx answers and ${result.errors} errors (not counted)`);
    }
    logins.push(result);

    const hashing = runScript<Verified>(
      'bench/servers/argon2-verify.ts',
      { ...process.env, CONCURRENCY: String(concurrency), DURATION_MS: String(seconds * 1000) },
      (seconds + 60) * 1000,
    );
    // The same CPU pressure without a single login reaching Coffer: what the machine alone does to /health.
    beside.push(...(await probeHealth(b.coffer.origin, hashing, (seconds + 60) * 1000)));
    verifies.push(await hashing);
  }
  const health = { idle, during: latencyOf(during), besideHashing: latencyOf(beside) };
  b.details.loginStorm = { concurrency, seconds, rounds, logins, argon2: verifies, health };

  const bestLogins = Math.max(...logins.map((run) => run.rps));
  const bestVerifies = Math.max(...verifies.map((run) => run.perSecond));
  const beside99 = health.besideHashing.p99;
  b.figures.push(
    figure('login rate', 'logins/s', bestLogins, 'raw argon2 verify', bestVerifies, { atLeastRatio: 0.9 }),
    figure('/health p99 during login storm', 'ms', health.during.p99, 'p99 beside raw argon2', beside99, { below: 50 }),
    figure('/health p99 beside raw argon2 (context)', 'ms', health.besideHashing.p99, 'idle /health p99', idle.p99),
  );
}
