import { afterEach, describe, expect, it } from 'vitest';
import { Argon2Hasher, defaultMaxConcurrent } from '../../src/adapters/argon2/argon2-hasher.js';
import { WorkLimit } from '../../src/adapters/argon2/work-limit.js';
import { isDomainError } from '../../src/domain/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** Rejects with the error, resolves with undefined when the promise resolves. */
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err);

describe('WorkLimit', () => {
  it('never runs more than maxActive at once, queues up to maxWaiting, and refuses the rest at once', async () => {
    const limit = new WorkLimit(2, 3);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      new Promise<void>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    const accepted = Array.from({ length: 5 }, () => limit.run(work));
    const refused = await failureOf(limit.run(work));
    expect(isDomainError(refused) && refused.code).toBe('rate_limited');
    expect(isDomainError(refused) && refused.details).toEqual({ retryAfter: 1 });
    await Promise.resolve();
    expect(running).toBe(2);
    expect(limit.queued).toBe(3);
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(accepted);
    expect(peak).toBe(2);
    expect(limit.active).toBe(0);
    expect(limit.queued).toBe(0);
  });

  it('frees the turn of work that fails', async () => {
    const limit = new WorkLimit(1, 0);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('Argon2Hasher work cap', () => {
  it('verifies at most maxConcurrent at once and refuses past the queue with rate_limited', async () => {
    const hasher = new Argon2Hasher({ ...CHEAP, maxConcurrent: 2, maxQueued: 4 });
    const digest = await hasher.hash('pw123456');
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, hasher.work.active)), 0);
    const calls = Array.from({ length: 10 }, () => failureOf(hasher.verify(digest, 'pw123456')));
    expect(hasher.work.active).toBe(2);
    expect(hasher.work.queued).toBe(4);
    const outcomes = await Promise.all(calls);
    clearInterval(sampler);
    const refused = outcomes.filter((err) => isDomainError(err) && err.code === 'rate_limited');
    expect(refused).toHaveLength(4);
    expect(outcomes.filter((err) => err === undefined)).toHaveLength(6);
    expect(peak).toBeLessThanOrEqual(2);
    await expect(hasher.verify(digest, 'pw123456')).resolves.toBe(true);
  });

  it('leaves a libuv thread free for file I/O by default, and hashes at most twice the cores at once', () => {
    expect(defaultMaxConcurrent()).toBeGreaterThanOrEqual(1);
    expect(defaultMaxConcurrent()).toBeLessThan(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    expect(defaultMaxConcurrent(4, 2)).toBe(3);
    expect(defaultMaxConcurrent(6, 2)).toBe(4);
    expect(defaultMaxConcurrent(64, 2)).toBe(4);
    expect(defaultMaxConcurrent(6, 16)).toBe(5);
    expect(defaultMaxConcurrent(1, 8)).toBe(1);
  });
});

describe('a login storm', () => {
  let t: HttpTest;
  afterEach(() => t.close());

  it('gets 429 with Retry-After past the queue, while the hasher never exceeds its cap', async () => {
    // Slow enough (tens of ms per verify) that the requests below overlap.
    t = await makeHttp({ trustProxy: 1, argon2: { memoryCost: 16384, timeCost: 3, maxConcurrent: 1, maxQueued: 2 } });
    await t.user('alice');
    const hasher = t.ports.hasher as Argon2Hasher;
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, hasher.work.active)), 0);
    const storm = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.request('POST', '/api/auth/login', {
          json: { username: 'alice', password: `wrong-password-${i}` },
          headers: { 'x-forwarded-for': `192.0.2.${i}` },
        }),
      ),
    );
    clearInterval(sampler);
    const busy = storm.filter((res) => res.status === 429);
    expect(storm.filter((res) => res.status === 401).length).toBeGreaterThanOrEqual(3);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy.length + storm.filter((res) => res.status === 401).length).toBe(storm.length);
    for (const res of busy) {
      expect(res.body).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: 1 });
      expect(res.headers.get('retry-after')).toBe('1');
    }
    expect(peak).toBeLessThanOrEqual(1);
    // A refused attempt was never judged, so it is not counted: its address still has all 10 guesses.
    const refusedFrom = `192.0.2.${storm.findIndex((res) => res.status === 429)}`;
    for (let i = 0; i < 10; i += 1) {
      const res = await t.request('POST', '/api/auth/login', {
        json: { username: 'alice', password: 'wrong-password' },
        headers: { 'x-forwarded-for': refusedFrom },
      });
      expect(res.status, `guess ${i + 1}`).toBe(401);
    }
  });
});
