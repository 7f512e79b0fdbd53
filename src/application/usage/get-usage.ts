import { assertMay, effectiveLimits, unauthorized } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { usageView } from '../views.js';

type Port = Core['getUsage'];

export class GetUsage implements Port {
  constructor(private readonly p: Pick<Ports, 'reports' | 'settings'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'usage.read');
    // The counters and the user's own maxima in one read.
    const report = await this.p.reports.reportOf(actor.userId);
    if (!report) throw unauthorized('The user no longer exists');
    return usageView(report.usage, effectiveLimits(this.p.settings.defaultLimits, report.limits));
  }
}
