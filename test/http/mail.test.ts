import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/application/index.js';
import { LoggedActivityRecorder } from '../../src/boot/activity-recorder.js';
import { makeHttp, type HttpTest } from '../support/http.js';

interface Mail {
  from: string;
  to: string[];
  text: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message it is given. */
async function smtp(): Promise<{ url: string; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, mails };
}

async function drain(t: HttpTest) {
  await t.container.get(LoggedActivityRecorder).settled();
  const worker = new OutboxWorker(t.ports);
  while (true) {
    const { dispatched, attempted } = await worker.step();
    if (dispatched === 0 && attempted === 0) return;
  }
}

const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('mail notices', () => {
  it('at most one mail per share per 10 minutes, summing up what happened since the last', async () => {
    const server = await smtp();
    const t = await makeHttp({ config: { mail: { smtpUrl: server.url, from: 'Coffer <coffer@example.com>' } } });
    cleanups.push(() => t.close());
    const alice = await t.userToken('alice');
    const me = await t.request('PATCH', '/api/auth/me', { token: alice, json: { email: 'alice@example.com' } });
    expect(me.body).toMatchObject({ username: 'alice', email: 'alice@example.com', mail: true });
    const file = (await t.upload(alice, 'hello')).body;
    const made = await t.request('POST', '/api/share', { token: alice, json: { type: 'file', id: file.id, notify: { email: true } } });
    expect(made.body.notify).toEqual({ email: true });
    expect((await t.request('GET', '/api/share', { token: alice })).body[0].notify).toEqual({ email: true });
    // The owner's own read of the share says so too; a stranger's (or an anonymous) read does not.
    expect((await t.request('GET', `/api/share/${made.body.id}`, { token: alice })).body.notify).toEqual({ email: true });
    expect((await t.request('GET', `/api/share/${made.body.id}`)).body).not.toHaveProperty('notify');
    const bob = await t.userToken('bob');
    expect((await t.request('GET', `/api/share/${made.body.id}`, { token: bob })).body).not.toHaveProperty('notify');
    const download = async () => {
      expect((await t.request('GET', `/api/share/${made.body.id}/content`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    };

    await download();
    await download();
    await t.request('GET', `/api/share/${made.body.id}`);
    await drain(t);
    await eventually(() => server.mails.length === 1);
    expect(server.mails).toHaveLength(1);
    expect(server.mails[0]).toMatchObject({ from: 'coffer@example.com', to: ['alice@example.com'] });
    expect(server.mails[0]!.text).toContain('Coffer: 2 downloads');

    // Within 10 minutes: nothing more is sent, whatever happens...
    for (let i = 0; i < 3; i++) await download();
    t.clock.advance(9 * 60_000);
    await drain(t);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.mails).toHaveLength(1);
    // ...then one mail sums it all up.
    t.clock.advance(60_000);
    await drain(t);
    await eventually(() => server.mails.length === 2);
    expect(server.mails[1]!.text).toContain('Coffer: 3 downloads');
    // Nothing new: no mail.
    t.clock.advance(60 * 60_000);
    await drain(t);
    expect(server.mails).toHaveLength(2);

    // Turned off: nothing.
    const off = await t.request('PATCH', `/api/share/${made.body.id}`, { token: alice, json: { notify: { email: false } } });
    expect(off.body.notify).toEqual({ email: false });
    await download();
    t.clock.advance(60 * 60_000);
    await drain(t);
    expect(server.mails).toHaveLength(2);
  });

  it('a request mails its received files; a mail server that is down never fails the upload', async () => {
    const t = await makeHttp({ config: { mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'coffer@example.com' } } });
    cleanups.push(() => t.close());
    const alice = await t.userToken('alice');
    await t.request('PATCH', '/api/auth/me', { token: alice, json: { email: 'alice@example.com' } });
    const request = (await t.request('POST', '/api/request', { token: alice, json: { name: 'Drop', notify: { email: true } } })).body;
    expect(request.notify).toEqual({ email: true });
    const form = new FormData();
    form.append('file', new Blob(['data']), 'a.txt');
    expect((await t.request('POST', `/api/request/${request.id}/file`, { body: form })).status).toBe(201);
    // The send fails (nothing listens); the notice stays pending for the next turn, and the upload was answered.
    await drain(t);
    expect(await t.ports.mailNotices.wanted([`request:${request.id}`])).toEqual(new Set([`request:${request.id}`]));
  });

  it('refuses a bad address and an API token', async () => {
    const t = await makeHttp();
    cleanups.push(() => t.close());
    const alice = await t.userToken('alice');
    expect((await t.request('PATCH', '/api/auth/me', { token: alice, json: { email: 'not an address' } })).status).toBe(400);
    expect((await t.request('PATCH', '/api/auth/me', { token: alice, json: { email: 'a@b.example', extra: 1 } })).status).toBe(400);
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'cli' } })).body.token;
    expect((await t.request('PATCH', '/api/auth/me', { token: api, json: { email: 'a@b.example' } })).status).toBe(403);
    expect((await t.request('GET', '/api/auth/me', { token: alice })).body).toMatchObject({ email: null, mail: false });
  });
});
