import { USER } from './coffer.js';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { load } from './load.js';
import { runScript, sleep } from './processes.js';
import { figure } from './report.js';
import { latencyOf, nowMs } from './stats.js';

const PROBE_INTERVAL_MS = 10;
const IDLE_PROBE_MS = 3_000;

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
 * process), and how GET /health answers while the logins hash: hashing must never block the event loop.
 */
export async function loginStorm(b: Bench): Promise<void> {
  const { loginConcurrency: concurrency, loginSeconds: seconds } = b.plan;
  log(`login storm: idle /health for ${IDLE_PROBE_MS / 1000} s`);
  const idle = latencyOf(await probeHealth(b.coffer.origin, sleep(IDLE_PROBE_MS), IDLE_PROBE_MS));

  log(`login storm: ${concurrency} concurrent logins for ${seconds} s, probing /health`);
  const storm = load({
    url: `${b.coffer.origin}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: USER.username, password: USER.password }),
    connections: concurrency,
    durationSec: seconds,
    warmupSec: 1,
  });
  const during = latencyOf(await probeHealth(b.coffer.origin, storm, (seconds + 30) * 1000));
  const logins = await storm;
  if (logins.non2xx > 0 || logins.errors > 0) {
    log(`  logins: ${logins.non2xx} non-2xx answers and ${logins.errors} errors (not counted)`);
  }

  log(`login storm: raw argon2id verify, ${concurrency} at a time for ${seconds} s, probing an idle Coffer's /health`);
  const hashing = runScript<{ verified: number; seconds: number; perSecond: number }>(
    'bench/servers/argon2-verify.ts',
    { ...process.env, CONCURRENCY: String(concurrency), DURATION_MS: String(seconds * 1000) },
    (seconds + 60) * 1000,
  );
  // The same CPU pressure without a single login reaching Coffer: what the machine alone does to /health.
  const besideHashing = latencyOf(await probeHealth(b.coffer.origin, hashing, (seconds + 60) * 1000));
  const argon2 = await hashing;
  b.details.loginStorm = { concurrency, seconds, logins, argon2, health: { idle, during, besideHashing } };

  b.figures.push(
    figure('login rate', 'logins/s', logins.rps, 'raw argon2 verify', argon2.perSecond, { atLeastRatio: 0.9 }),
    figure('/health p99 during login storm', 'ms', during.p99, 'p99 beside raw argon2', besideHashing.p99, {
      below: 50,
    }),
    figure('/health p99 beside raw argon2 (context)', 'ms', besideHashing.p99, 'idle /health p99', idle.p99),
  );
}
