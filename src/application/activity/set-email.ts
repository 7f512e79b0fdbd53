import { assertMay, badRequest, type Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'mailNotices'>;

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
