import { afterAll } from 'vitest';
import { startCoffer } from '../../src/boot/server.js';
import { limitVariable, type Env } from '../../src/boot/config.js';
import type { LimitKind, Limits } from '../../src/domain/index.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from '../mongodb/mongo-app.js';
import { makeHttp, requestInit, toReply, type Reply, type RequestOptions } from './http.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from './mongo.js';
import { checkAnswer } from './openapi-check.js';

/** One running service the same HTTP test drives, whatever keeps its data. */
export interface Backend {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** A plain user, created on first use, and a session of theirs. */
  userToken(name: string): Promise<string>;
  /** A session of the service's admin. */
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

/** A request to a running service, its answer held to the OpenAPI document as makeHttp's are. */
async function send(url: string, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const reply = await toReply(await fetch(url + path, { method, ...requestInit(opts) }));
  checkAnswer(method, path, reply.status, reply.body);
  return reply;
}

export interface BackendOptions {
  limits?: Partial<Limits>;
}

export async function memoryBackend(options: BackendOptions = {}): Promise<Backend> {
  const t = await makeHttp({ limits: options.limits });
  return { url: t.url, request: t.request, userToken: t.userToken, adminToken: t.adminToken, close: t.close };
}

/** The service as npm start runs it, on MongoDB with GridFS, with its own database, dropped on close. */
export async function mongoBackend(uri: string, options: BackendOptions = {}): Promise<Backend> {
  const dbName = freshDbName();
  const env: Env = {};
  for (const [kind, value] of Object.entries(options.limits ?? {})) env[limitVariable(kind as LimitKind)] = String(value);
  const running = await startCoffer(mongoConfig(uri, dbName, env), { argon2: CHEAP_ARGON2 });
  const request = (method: string, path: string, opts?: RequestOptions) => send(running.url, method, path, opts);
  const login = async (username: string, password: string) =>
    (await request('POST', '/api/auth/login', { json: { username, password } })).body.token as string;
  const admin = await login(ADMIN.username, ADMIN.password);
  const users = new Map<string, Promise<string>>();
  const userToken = (name: string) => {
    let token = users.get(name);
    if (!token) {
      const password = `${name}-password`;
      token = request('POST', '/api/admin/users', { token: admin, json: { username: name, password } }).then(() =>
        login(name, password),
      );
      users.set(name, token);
    }
    return token;
  };
  return {
    url: running.url,
    request,
    userToken,
    adminToken: async () => admin,
    close: async () => {
      await running.close();
      await dropDatabases(uri, [dbName]);
    },
  };
}

/**
 * The backends a suite runs on: memory always, MongoDB with GridFS when a server is reachable (else one line says
 * why it is skipped). Use inside `describe.each`.
 */
export async function backends(options: BackendOptions = {}): Promise<[string, () => Promise<Backend>][]> {
  const target = await getMongoUri();
  const memory = () => memoryBackend(options);
  if (!target) {
    console.log(MONGO_SKIP_MESSAGE);
    return [['memory', memory]];
  }
  afterAll(() => target.stop());
  return [
    ['memory', memory],
    ['mongodb', () => mongoBackend(target.uri, options)],
  ];
}
