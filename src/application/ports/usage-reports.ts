import type { LimitOverrides, Usage } from '../../domain/index.js';

export const UsageReports = Symbol('UsageReports');

export interface UsageReport {
  usage: Usage;
  /** The user's own maxima, over the configured defaults. */
  limits: LimitOverrides;
}

/** A user's counters and own maxima, read together (one database command) for the usage stats. */
export interface UsageReports {
  /** Null when there is no such user; zero counters for a user who has counted nothing yet. */
  reportOf(userId: string): Promise<UsageReport | null>;
}
