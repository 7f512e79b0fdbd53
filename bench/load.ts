import { createRequire } from 'node:module';

/** The part of autocannon's options and result this bench uses (the package ships no types). */
interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  warmup?: { connections: number; duration: number };
  timeout?: number;
}
interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  latency: { p50: number; p99: number; average: number; max: number };
}
type Autocannon = (options: CannonOptions) => Promise<CannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Load {
  url: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
}

/** A fixed-duration autocannon run after an untimed warm-up of the same shape; only 2xx answers count. */
export async function load(spec: Load): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSec,
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.warmupSec > 0 ? { warmup: { connections: spec.connections, duration: spec.warmupSec } } : {}),
    timeout: 30,
  });
  return {
    rps: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
