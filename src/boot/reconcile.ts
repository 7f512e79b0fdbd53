import { Core, type ReconcileReport } from '../application/index.js';
import { buildContainer, connectPersistence, type ConnectOptions } from './composition.js';
import type { Config } from './config.js';
import { LIMIT_KINDS } from '../domain/index.js';

export interface ReconcileRun {
  fix: boolean;
  /** Where the report goes, one line per drifted user and a summary. */
  write: (line: string) => void;
  connect?: ConnectOptions;
}

/** Thrown when there is nothing durable to reconcile: a fresh in-memory store always agrees with itself. */
export class NothingToReconcile extends Error {
  constructor() {
    super('persistence is memory, so there is nothing stored to reconcile: set MONGODB_URI (or run it where the embedded MongoDB lives)');
    this.name = 'NothingToReconcile';
  }
}

export function formatReport(report: ReconcileReport): string[] {
  const lines = report.drifted.map((user) => {
    const kinds = LIMIT_KINDS.filter((kind) => user.drift[kind] !== undefined).map(
      (kind) => `${kind} ${user.stored[kind]} → ${user.actual[kind]}`,
    );
    return `${user.username} (${user.userId}): ${kinds.join(', ')}`;
  });
  const { stored, actual } = report.admins;
  // The count the last-admin guard decides on; it only drifts after a crash mid-demotion or a rolling upgrade.
  if (stored !== actual) lines.push(`admin count: ${stored} → ${actual}${report.fixed ? ' (repaired)' : ''}`);
  const users = report.checked === 1 ? '1 user' : `${report.checked} users`;
  const verb = report.fixed ? 'repaired' : 'found (run with --fix to repair)';
  const summary =
    report.drifted.length === 0
      ? `checked ${users}: no drift`
      : `checked ${users}: drift ${verb} for ${report.drifted.length}`;
  return [...lines, summary];
}

/**
 * The operator's reconcile: the same persistence the service would choose, the reconcileUsage use case, a report.
 * With the embedded MongoDB the service must be stopped first (mongod locks its data directory).
 */
export async function runReconcile(config: Config, run: ReconcileRun): Promise<ReconcileReport> {
  const persistence = await connectPersistence(config, run.connect);
  try {
    if (persistence.kind === 'memory') throw new NothingToReconcile();
    // Reconciling reads records only, so no blob store is touched (nor a data directory created).
    const container = buildContainer(config, { persistence, blobStore: 'memory', logger: run.connect?.logger });
    const report = await container.get<Core>(Core).reconcileUsage.execute({ actor: null, fix: run.fix });
    for (const line of formatReport(report)) run.write(line);
    return report;
  } finally {
    await persistence.close();
  }
}
