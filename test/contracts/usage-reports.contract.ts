import { beforeEach, describe, expect, it } from 'vitest';
import type { UsageCounter, UsageReports, UserRepository } from '../../src/application/ports/index.js';
import { ZERO_USAGE } from '../../src/domain/index.js';
import { aUser } from './fixtures.js';

export interface ReportStores {
  reports: UsageReports;
  usage: UsageCounter;
  users: UserRepository;
}

/** Every UsageReports adapter runs this, over the usage counter and user repository of the same (empty) storage. */
export function usageReportsContract(name: string, make: () => Promise<ReportStores>): void {
  describe(name, () => {
    let stores: ReportStores;
    beforeEach(async () => {
      stores = await make();
    });

    it("reads a user's counters with their own maxima", async () => {
      const user = aUser({ limits: { files: 3, storage: 5_000_000_000 } });
      await stores.users.insert(user);
      await stores.usage.reserve(user.id, 'files', 2, 3);
      await stores.usage.reserve(user.id, 'storage', 4_000_000_000, 5_000_000_000);
      expect(await stores.reports.reportOf(user.id)).toEqual({
        usage: { ...ZERO_USAGE, files: 2, storage: 4_000_000_000 },
        limits: { files: 3, storage: 5_000_000_000 },
      });
    });

    it('answers zeros for a user who counted nothing yet, and null for an unknown user', async () => {
      const user = aUser();
      await stores.users.insert(user);
      expect(await stores.reports.reportOf(user.id)).toEqual({ usage: ZERO_USAGE, limits: {} });
      await stores.usage.reserve('ghost', 'files', 1, 5);
      expect(await stores.reports.reportOf('ghost')).toBeNull();
    });
  });
}
