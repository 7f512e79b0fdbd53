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

let verified = 0;
const started = performance.now();
const deadline = started + durationMs;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      if (!(await verify(digest, password))) throw new Error('argon2 verify failed on the right password');
      verified++;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ verified, seconds, perSecond: verified / seconds }));
