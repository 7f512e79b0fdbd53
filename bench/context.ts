import type { CofferApi } from './coffer.js';
import type { Plan } from './plan.js';
import type { Child } from './processes.js';
import type { Figure } from './report.js';

/** What every section reads and adds to. */
export interface Bench {
  plan: Plan;
  /** The run's temporary directory; Coffer's DATA_DIR and the raw server's files live under it (one disk). */
  dir: string;
  coffer: Child;
  raw: Child;
  koa: Child;
  api: CofferApi;
  userToken: string;
  /** A public share of a small file. */
  shareId: string;
  figures: Figure[];
  /** Raw measurements behind the figures, written to results.json. */
  details: Record<string, unknown>;
}

export function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}
