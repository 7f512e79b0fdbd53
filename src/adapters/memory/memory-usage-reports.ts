import { inject, injectable } from 'inversify';
import type { UsageReport, UsageReports } from '../../application/ports/index.js';
import { UsageCounter, UserRepository } from '../../application/ports/index.js';

/** Two reads in a row: in memory a read costs no round trip, so nothing is gained by joining them. */
@injectable()
export class MemoryUsageReports implements UsageReports {
  constructor(
    @inject(UsageCounter) private readonly usage: UsageCounter,
    @inject(UserRepository) private readonly users: UserRepository,
  ) {}

  async reportOf(userId: string): Promise<UsageReport | null> {
    const user = await this.users.findById(userId);
    return user && { usage: await this.usage.get(userId), limits: user.limits };
  }
}
