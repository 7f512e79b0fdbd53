import { assertMay, type Actor } from '../../domain/index.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'mailNotices' | 'shares' | 'requests' | 'clock'>;

/** "Email me when it is downloaded" (a share) or "when files arrive" (a request): the owner's switch. */
export class SetNotify {
  constructor(private readonly p: Deps) {}

  async execute({ actor, kind, id, email }: { actor: Actor; kind: 'share' | 'request'; id: string; email: boolean }): Promise<void> {
    assertMay(actor, 'notify.set');
    const found = kind === 'share' ? await this.p.shares.findById(id) : await this.p.requests.findById(id);
    owned(found, actor.userId, kind === 'share' ? 'Share' : 'Request');
    await this.p.mailNotices.setWanted(`${kind}:${id}`, actor.userId, email, this.p.clock.now());
  }
}
