import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, rawRequest, readUntilClosed } from '../support/raw-http.js';

let t: HttpTest;
afterEach(() => t.close());

const HEAD_OVER_CAP = 'h'.repeat(17 * 1024);

/** A request made by Node's own HTTP client: what it parsed, or the error it met. */
function nodeRequest(url: string, method: string, headers: Record<string, string>) {
  return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        // A body read as the next response shows up as an error right after the end, on the request.
        setTimeout(() => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }), 50);
      });
    });
    req.on('error', (err) => resolve({ error: err.message }));
    req.end();
  });
}

describe('HEAD answers given before routing', () => {
  it('a HEAD refused with 431 is parsed fine by Node’s own client', async () => {
    t = await makeHttp();
    const head = await nodeRequest(`${t.url}/health`, 'HEAD', { 'x-padding': HEAD_OVER_CAP });
    expect(head).toEqual({ status: 431, body: '' });
    const get = await nodeRequest(`${t.url}/health`, 'GET', { 'x-padding': HEAD_OVER_CAP });
    expect(get.status).toBe(431);
    expect(JSON.parse(get.body!)).toEqual({ error: 'bad_request', message: expect.any(String) });
  });

  it('carry no body on the wire, for 431 and 400, while GET keeps the error shape', async () => {
    t = await makeHttp();
    const big = await rawRequest(t.url, `HEAD /health HTTP/1.1\r\nHost: x\r\nX-Padding: ${HEAD_OVER_CAP}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.body).toBe('');
    expect(big.headers).toContain('Content-Length: 0');
    expect(big.headers).toContain('X-Content-Type-Options: nosniff');
    const malformed = await rawRequest(t.url, 'HEAD /health HTTP/9\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toBe('');
    const get = await rawRequest(t.url, 'GET /health HTTP/9\r\n\r\n');
    expect(get.status).toBe(400);
    expect(JSON.parse(get.body).error).toBe('bad_request');
  });

  it('carry no body when the refused bytes do not show the method', async () => {
    t = await makeHttp();
    const socket = await openSocket(t.url);
    const reply = readUntilClosed(socket, 5000);
    // The head comes in two pieces; Node refuses the second, which does not start with the request line.
    socket.write(`HEAD /health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(1024)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(`${HEAD_OVER_CAP}\r\n\r\n`);
    const { status, body } = await reply;
    expect(status).toBe(431);
    expect(body).toBe('');
  });

  it('and routed HEAD answers, errors included, carry none either', async () => {
    t = await makeHttp();
    for (const path of ['/health', '/api/file/unknown-id', '/api/usage/stats', '/no/such/route']) {
      const reply = await rawRequest(t.url, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(reply.status, path).toBeGreaterThanOrEqual(200);
      expect(reply.body, path).toBe('');
    }
  });
});
