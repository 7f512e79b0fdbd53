import type { Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'mailNotices' | 'mailer'>;

export class GetEmail {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: { actor: Actor }): Promise<{ email: string | null; mail: boolean }> {
    return { email: await this.p.mailNotices.address(actor.userId), mail: this.p.mailer.available };
  }
}
