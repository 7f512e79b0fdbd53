import { MiB } from './stats.js';

/** What one run measures, and how long each measurement lasts. Every loop in the bench is bounded by these. */
/** The sections of a run, in the order they run; `--only <section>` runs one of them. */
export const SECTIONS = ['reads', 'transfers', 'logins', 'tree', 'page', 'web', 'activity'] as const;
export type Section = (typeof SECTIONS)[number];

export interface Plan {
  mode: 'quick' | 'full';
  /** What this run measures: every section unless `--only` names one. */
  sections: readonly Section[];
  /** autocannon run and warm-up lengths for the share reads. */
  readSeconds: number;
  readWarmupSeconds: number;
  readConnections: number;
  /** Rounds of raw, Koa, Coffer in turn; each server's best round counts. */
  readRounds: number;
  /**
   * Rounds of activity on and off, both driven at once on one shared core; each side's answers over all rounds count.
   * Two processes measured so, both with activity off, agree within 1% (round by round and overall).
   */
  activityRounds: number;
  uploadBytes: number;
  /** Rounds of every upload and download variant in turn, the order rotating; each variant's best round counts. */
  transferRounds: number;
  loginSeconds: number;
  loginConcurrency: number;
  /** Rounds of the login storm and the raw argon2 run in turn. */
  loginRounds: number;
  /** File counts at which search and the folder subtree are measured; the last is the whole data set. */
  scales: number[];
  /** Folders at the last scale, in ten equal areas (each area a subtree of its own). */
  folders: number;
  /** Sequential timed requests per latency figure. */
  samples: number;
  /** Concurrent connections that create the files. */
  seedWidth: number;
  /** The watchdog: past this the run stops its children and fails. */
  budgetMs: number;
}

const QUICK: Plan = {
  mode: 'quick',
  sections: SECTIONS,
  readSeconds: 3,
  readWarmupSeconds: 1,
  readConnections: 50,
  readRounds: 1,
  activityRounds: 1,
  uploadBytes: 64 * MiB,
  transferRounds: 3,
  loginSeconds: 3,
  loginConcurrency: 8,
  loginRounds: 1,
  scales: [1_000, 10_000],
  folders: 100,
  samples: 40,
  seedWidth: 24,
  budgetMs: 5 * 60_000,
};

const FULL: Plan = {
  ...QUICK,
  mode: 'full',
  readSeconds: 10,
  readWarmupSeconds: 2,
  readRounds: 2,
  activityRounds: 4,
  uploadBytes: 1024 * MiB,
  transferRounds: 5,
  loginSeconds: 10,
  loginRounds: 2,
  scales: [10_000, 100_000],
  folders: 1_000,
  samples: 100,
  budgetMs: 40 * 60_000,
};

const USAGE = 'options: --quick, --only <reads|transfers|logins|tree|page|web|activity>';

export function planFrom(argv: readonly string[]): Plan {
  let plan = FULL;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') plan = { ...QUICK, sections: plan.sections };
    else if (arg === '--only') {
      const section = SECTIONS.find((name) => name === argv[i + 1]);
      if (!section) throw new Error(`--only needs one of ${SECTIONS.join(', ')} (${USAGE})`);
      plan = { ...plan, sections: [section] };
      i++;
    } else throw new Error(`unknown argument ${arg} (${USAGE})`);
  }
  return plan;
}
