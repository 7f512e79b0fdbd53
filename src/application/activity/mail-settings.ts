import { assertMay, badRequest, type Actor } from '../../domain/index.js';
import { owned } from '../owned.js';
import type { NoticeKey, Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'mailNotices' | 'mailer' | 'shares' | 'requests' | 'clock'>;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const EMAIL_MAX = 254;

/** Where mail notices go (`PATCH /api/auth/me {email}`); null removes it. From a session only. */
export class SetEmail {
  constructor(private readonly p: Deps) {}

  async execute({ actor, email }: { actor: Actor; email: string | null }): Promise<{ email: string | null }> {
    assertMay(actor, 'account.email');
    const value = email === null ? null : email.trim();
    if (value !== null && (value.length > EMAIL_MAX || !EMAIL.test(value))) {
      throw badRequest('email: not a mail address', { field: 'email' });
    }
    await this.p.mailNotices.setAddress(actor.userId, value);
    return { email: value };
  }
}

export class GetEmail {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: { actor: Actor }): Promise<{ email: string | null; mail: boolean }> {
    return { email: await this.p.mailNotices.address(actor.userId), mail: this.p.mailer.available };
  }
}

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

/** Which of these shares or requests have mail notices on. */
export class NotifyOf {
  constructor(private readonly p: Deps) {}

  async execute({ kind, ids }: { kind: 'share' | 'request'; ids: readonly string[] }): Promise<Set<string>> {
    const keys = ids.map((id) => `${kind}:${id}` as NoticeKey);
    const wanted = await this.p.mailNotices.wanted(keys);
    return new Set([...wanted].map((key) => key.slice(kind.length + 1)));
  }
}
