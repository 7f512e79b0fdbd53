import type { RequestListener, Server } from 'node:http';
import type { Container } from 'inversify';
import type { AddressInfo } from 'node:net';
import { HttpApp } from '../../src/adapters/http/http-app.js';
import type { HttpLogger } from '../../src/adapters/http/http-options.js';
import { createHttpServer, type ServerLimits } from '../../src/adapters/http/server/http-server.js';
import { Core, Ports } from '../../src/application/index.js';
import { buildContainer, type BuildOptions } from '../../src/boot/composition.js';
import type { Config } from '../../src/boot/config.js';
import { signUp, TestClock, testBuildOptions, testConfig, type TestCoreOptions } from './core.js';
import { checkAnswer } from './openapi-check.js';
import { SecretScan } from './secret-scan.js';

export const silentLogger: HttpLogger = { info() {}, warn() {}, error() {} };

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, otherwise undefined. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  bytes: Buffer;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** Sent as application/json. */
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

export interface UploadOptions {
  filename?: string;
  type?: string;
  folderId?: string;
  name?: string;
}

export interface HttpTest {
  url: string;
  /** The graph the app was built from (another makeHttp may share its memory database through `memoryOf`). */
  container: Container;
  core: Core;
  ports: Ports;
  clock: TestClock;
  logger: HttpLogger;
  /** Every request made through `request` and `upload`, and what might leak through their answers. */
  scan: SecretScan;
  /** Closes the server, then fails if any answer carried a secret (see SecretScan). */
  close(): Promise<void>;
  /** One admin per app, created on first use. */
  adminToken(): Promise<string>;
  userToken(name: string): Promise<string>;
  user(name: string, type?: 'admin' | 'user'): Promise<{ token: string; userId: string }>;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  upload(token: string, content: string | Uint8Array, options?: UploadOptions): Promise<Reply>;
}

/** The headers and body a request with these options sends: the token scheme, JSON encoded as JSON. */
export function requestInit(opts: RequestOptions): { headers: Record<string, string>; body: RequestInit['body'] } {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers['authorization'] = `token ${opts.token}`;
  if (opts.json === undefined) return { headers, body: opts.body };
  headers['content-type'] = 'application/json';
  return { headers, body: JSON.stringify(opts.json) };
}

export async function toReply(res: Response): Promise<Reply> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
  return { status: res.status, headers: res.headers, body: isJson && text ? JSON.parse(text) : undefined, bytes, text };
}

/** The real Koa app on the real core (memory adapters), served on 127.0.0.1 with an ephemeral port. */
export async function makeHttp(
  options: TestCoreOptions & {
    logger?: HttpLogger;
    trustProxy?: number;
    /**
     * PUBLIC_URL as the configuration would hold it (no trailing slash); a function makes it from the port the server
     * got (a browser test that must reach the server at its public address, `http://localhost:{port}`).
     */
    publicUrl?: string | ((port: number) => string);
    serverLimits?: Partial<ServerLimits>;
    /** The built front end to serve (see BuildOptions.webDir); default web/dist, null none. */
    webDir?: string | null;
    /** Hold every answer to the OpenAPI document (default true); off only for a test that fakes a broken answer. */
    checkAnswers?: boolean;
    /** A second instance: the records of this other app's memory database (as two instances share one MongoDB). */
    memoryOf?: Container;
    /** The clock to share with another instance; a fresh one by default. */
    clock?: TestClock;
    /** Settings as the environment would give them (single sign-on, PASSWORD_LOGIN, …), over the test defaults. */
    config?: Partial<Config>;
    /** Single sign-on's retry pace (see BuildOptions.ssoTiming). */
    ssoTiming?: BuildOptions['ssoTiming'];
  } = {},
): Promise<HttpTest> {
  let scan!: SecretScan;
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? new TestClock();
  // Listening before the app exists, so that PUBLIC_URL may name the port; no request comes before it is built.
  let app: RequestListener | null = null;
  const server: Server = createHttpServer((req, res) => app?.(req, res), options.serverLimits);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = typeof options.publicUrl === 'function' ? options.publicUrl(port) : (options.publicUrl ?? null);
  // The very graph npm start builds, on the memory adapters, with the secret scan recording every port's answers.
  const overrides = { trustProxy: options.trustProxy ?? 0, publicUrl, ...options.config };
  const container = buildContainer(testConfig(options, overrides), {
    ...testBuildOptions(options, clock),
    httpLogger: logger,
    webDir: options.webDir,
    ssoTiming: options.ssoTiming,
    memoryOf: options.memoryOf,
    wrapPorts: (raw) => {
      const wrapped = options.wrapPorts ? options.wrapPorts(raw) : raw;
      scan = new SecretScan(wrapped);
      return { ...wrapped, blobs: scan.recordingBlobs(wrapped.blobs) };
    },
  });
  const core = container.get<Core>(Core);
  const ports = container.get<Ports>(Ports);
  app = container.get(HttpApp).callback();

  const users = new Map<string, Promise<{ token: string; userId: string }>>();
  const user = (name: string, type: 'admin' | 'user' = 'user') => {
    let created = users.get(name);
    if (!created) {
      scan.addSecret('password', `${name}-password`);
      created = signUp({ core, ports }, name, type).then(({ token, userId }) => {
        scan.addToken(token);
        return { token, userId };
      });
      users.set(name, created);
    }
    return created;
  };

  const request = async (method: string, path: string, opts: RequestOptions = {}) => {
    const { headers, body } = requestInit(opts);
    scan.noteRequest(headers, opts.json);
    const reply = await toReply(await fetch(url + path, { method, headers, body }));
    const head = [...reply.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    scan.noteResponse({ method, path, status: reply.status, head, text: reply.text }, reply.body);
    // Every answer of every HTTP test is held to the OpenAPI document.
    if (options.checkAnswers !== false) checkAnswer(method, path, reply.status, reply.body);
    return reply;
  };

  const upload = (token: string, content: string | Uint8Array, o: UploadOptions = {}) => {
    const form = new FormData();
    if (o.folderId !== undefined) form.append('folderId', o.folderId);
    if (o.name !== undefined) form.append('name', o.name);
    const blob = new Blob([typeof content === 'string' ? content : new Uint8Array(content)], {
      type: o.type ?? 'text/plain',
    });
    form.append('file', blob, o.filename ?? 'hello.txt');
    return request('POST', '/api/file', { token, body: form });
  };

  return {
    url,
    container,
    core,
    ports,
    clock,
    logger,
    scan,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      });
      const leaks = await scan.leaks();
      if (leaks.length > 0) throw new Error(`Secrets reached a response:\n${leaks.join('\n')}`);
    },
    adminToken: async () => (await user('admin', 'admin')).token,
    userToken: async (name) => (await user(name)).token,
    user,
    request,
    upload,
  };
}
