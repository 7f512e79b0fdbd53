import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Sent {
  method?: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
  /** Aborts a request that has not completed within this many ms (every request here is bounded). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

async function collect(res: IncomingMessage): Promise<Reply> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
}

/**
 * A keep-alive HTTP/1.1 client for one origin. Each section makes its own and closes it afterwards, so no socket
 * idles past the server's keep-alive timeout between sections and gets reset under a later request.
 */
export class HttpClient {
  readonly agent: Agent;

  constructor(
    readonly origin: string,
    maxSockets = 8,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** The whole response body in memory: for small JSON answers only. */
  send({ method = 'GET', path, headers = {}, body, timeoutMs = DEFAULT_TIMEOUT_MS }: Sent): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${this.origin}${path}`, { method, headers, agent: this.agent }, (res) => {
        collect(res).then(resolve, reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** JSON in and out; anything but the expected status is an error naming the answer. */
  async json<T>(method: string, path: string, body: unknown, token: string | null, expect = 200): Promise<T> {
    const headers: OutgoingHttpHeaders = {};
    if (token !== null) headers.authorization = `token ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const reply = await this.send({ method, path, headers, body: payload });
    if (reply.status !== expect) {
      throw new Error(`${method} ${path} answered ${reply.status}: ${reply.body.toString('utf8').slice(0, 300)}`);
    }
    return (reply.body.length > 0 ? JSON.parse(reply.body.toString('utf8')) : undefined) as T;
  }

  /** Streams `source` as the request body and reads the (small) answer: uploads of any size in bounded memory. */
  stream(path: string, headers: OutgoingHttpHeaders, source: AsyncIterable<Buffer>, timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${this.origin}${path}`, { method: 'POST', headers, agent: this.agent }, (res) => {
        collect(res).then(resolve, reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`upload to ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      pipeline(Readable.from(source), req).catch(reject);
    });
  }

  /** Reads a response body without keeping it, and answers how many bytes it held. */
  drain(path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${this.origin}${path}`, { headers, agent: this.agent }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`download of ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
