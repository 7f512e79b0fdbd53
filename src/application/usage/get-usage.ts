import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { limitsOf } from '../usage-limits.js';
import { usageView } from '../views.js';

type Port = Core['getUsage'];

export class GetUsage implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'usage' | 'settings'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'usage.read');
    const [usage, limits] = await Promise.all([this.p.usage.get(actor.userId), limitsOf(this.p, actor.userId)]);
    return usageView(usage, limits);
  }
}
