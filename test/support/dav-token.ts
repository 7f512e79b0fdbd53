import { expect } from 'vitest';
import type { HttpTest } from './http.js';

/**
 * A dav token whose secret begins with '-' (one in 64 do): such a secret once read as an option to litmus and failed a
 * suite now and then; the litmus and rclone tests run with one, so that cannot come back unnoticed. The others are revoked.
 */
export async function davTokenStartingWithDash(t: HttpTest, session: string): Promise<string> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const created = await t.request('POST', '/api/token', { token: session, json: { name: 'dav', scope: 'dav' } });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    t.scan.addToken(token);
    if (token.startsWith('-')) return token;
    expect((await t.request('DELETE', `/api/token/${created.body.id as string}`, { token: session })).status).toBe(204);
  }
  throw new Error('no token beginning with "-" in 2000 tries');
}
