/** Nearest-rank percentile of `samples` (ms), `p` in 0..100. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  count: number;
}

export function latencyOf(samples: readonly number[]): Latency {
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : NaN,
    count: samples.length,
  };
}

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Times `task` run one after another `times` times (after `warmup` untimed runs): one sample per run, in ms. */
export async function timeSequential(times: number, warmup: number, task: (i: number) => Promise<void>) {
  for (let i = 0; i < warmup; i++) await task(i);
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = nowMs();
    await task(i);
    samples.push(nowMs() - started);
  }
  return samples;
}

/** Runs `task(i)` for i in 0..count-1 on `width` concurrent lanes. */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
