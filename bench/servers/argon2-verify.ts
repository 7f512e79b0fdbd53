import { argon2id, hash, verify } from 'argon2';

/**
 * The login ceiling: argon2id verifications with Coffer's production parameters (m=19456 KiB, t=2, p=1) in a
 * process of its own, `CONCURRENCY` at a time for `DURATION_MS`, as the login storm runs them. Prints one JSON line.
 */
const concurrency = Number(process.env.CONCURRENCY ?? 8);
const durationMs = Number(process.env.DURATION_MS ?? 5_000);
const password = 'bench-password-1234';

const digest = await hash(password, { type: argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
await verify(digest, password);

// Counted as autocannon counts logins: only what completes within the duration, divided by the duration.
let verified = 0;
const deadline = performance.now() + durationMs;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      if (!(await verify(digest, password))) throw new Error('argon2 verify failed on the right password');
      if (performance.now() <= deadline) verified++;
    }
  }),
);
const seconds = durationMs / 1000;
console.log(JSON.stringify({ verified, seconds, perSecond: verified / seconds }));
