import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket } from '../support/raw-http.js';
import { until } from '../support/wait.js';

const TUS = { 'tus-resumable': '1.0.0' };

function patchHead(location: string, token: string, offset: number, length: number): string {
  return [
    `PATCH ${location} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: token ${token}`,
    'Tus-Resumable: 1.0.0',
    'Content-Type: application/offset+octet-stream',
    `Upload-Offset: ${offset}`,
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');
}

describe('the body of a tus append', () => {
  let t: HttpTest;
  afterEach(() => t.close());

  const start = async (length: number) => {
    const token = await t.userToken('alice');
    const res = await t.request('POST', '/api/upload/tus', { token, headers: { ...TUS, 'upload-length': String(length) } });
    return { token, location: res.headers.get('location')! };
  };
  const offsetOf = async (location: string, token: string) =>
    Number((await t.request('HEAD', location, { token, headers: TUS })).headers.get('upload-offset'));

  it('keeps what arrived before the client was cut off, so it resumes from there', async () => {
    t = await makeHttp();
    const { token, location } = await start(1000);
    const socket = await openSocket(t.url);
    socket.write(patchHead(location, token, 0, 1000));
    socket.write(Buffer.alloc(300, 1));
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await until(async () => (await offsetOf(location, token)) === 300, 'the 300 bytes received to be committed');
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body.storage.current).toBe('300');
  });

  it('is paced as an upload (a minimum rate), not held to the deadline of small bodies', async () => {
    t = await makeHttp({ serverLimits: { bodyTimeout: 300, uploadMinRate: 1, uploadRateWindow: 200 } });
    const { token, location } = await start(8);
    const socket = await openSocket(t.url);
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.write(patchHead(location, token, 0, 8));
    // Eight bytes over about 800 ms: well past the 300 ms a JSON body gets, but never idle for a whole window.
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 100));
      socket.write(Buffer.from([i]));
    }
    await until(() => answer.includes('\r\n\r\n'), 'the answer');
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(await offsetOf(location, token)).toBe(8);
  });
});
