import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpClient } from './http-client.js';
import { smallMultipart } from './multipart.js';
import { REPO_ROOT, startChild, type Child } from './processes.js';

export const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
export const USER = { username: 'bench', password: 'bench-user-password' };

/** What `npm start` runs: `UV_THREADPOOL_SIZE=${UV_THREADPOOL_SIZE:-6} node <flags> --import tsx src/main.ts`. */
const START = /^UV_THREADPOOL_SIZE=\$\{UV_THREADPOOL_SIZE:-(\d+)\} node ((?:--[\w-]+(?:=\S+)? )*)--import tsx src\/main\.ts$/;

/** The thread pool and Node flags of `npm start`, read from package.json so the bench starts Coffer exactly so. */
export function startCommand(): { threadPool: string; nodeArgs: string[] } {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = START.exec(pkg.scripts.start);
  if (!match) throw new Error(`bench/coffer.ts cannot read the start script of package.json: ${pkg.scripts.start}`);
  return { threadPool: match[1]!, nodeArgs: match[2]!.split(' ').filter(Boolean) };
}

/**
 * Coffer as `npm start` runs it in production, configured only through its environment: limits generous enough for
 * 100,000 files and a 1 GiB upload. MONGODB_URI (and anything else the caller's environment sets) passes through, so
 * the same run measures the MongoDB persistence.
 */
export function startCoffer(dataDir: string, extraEnv: Record<string, string> = {}, name = 'coffer'): Promise<Child> {
  const start = startCommand();
  const env = {
    ...process.env,
    // Memory unless the caller names a database; start-up would otherwise look for a mongod to embed.
    PERSISTENCE: process.env.PERSISTENCE ?? (process.env.MONGODB_URI ? 'mongodb' : 'memory'),
    UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? start.threadPool,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    MAX_UPLOAD_BYTES: String(2 * 1024 ** 3),
    LIMIT_STORAGE: String(1024 ** 4),
    LIMIT_FILES: '1000000',
    LIMIT_FOLDERS: '100000',
    LIMIT_SHARES: '100000',
    LIMIT_PASTES: '100000',
    LIMIT_COLLECTIONS: '100000',
    LIMIT_TOKENS: '1000',
    // The seed uploads small files 24 at a time from one user.
    MAX_CONCURRENT_UPLOADS: '64',
    ...extraEnv,
  };
  return startChild(name, 'src/main.ts', env, { nodeArgs: start.nodeArgs });
}

interface Created {
  id: string;
}

/** The few API calls the bench needs, on the public HTTP interface only. */
export class CofferApi {
  constructor(readonly http: HttpClient) {}

  async login(username: string, password: string): Promise<string> {
    return (await this.http.json<{ token: string }>('POST', '/api/auth/login', { username, password }, null)).token;
  }

  async createUser(adminToken: string, username: string, password: string): Promise<void> {
    await this.http.json('POST', '/api/admin/users', { username, password, type: 'user' }, adminToken, 201);
  }

  async createFolder(token: string, name: string, parentId: string | null): Promise<string> {
    return (await this.http.json<Created>('POST', '/api/folder', { name, parentId }, token, 201)).id;
  }

  async uploadSmall(token: string, folderId: string | null, filename: string, content: Buffer): Promise<string> {
    const fields: Record<string, string> = folderId === null ? {} : { folderId };
    const { contentType, body } = smallMultipart(fields, filename, content);
    const reply = await this.http.send({
      method: 'POST',
      path: '/api/file',
      headers: { authorization: `token ${token}`, 'content-type': contentType, 'content-length': body.length },
      body,
    });
    if (reply.status !== 201) {
      throw new Error(`upload of ${filename} answered ${reply.status}: ${reply.body.toString('utf8').slice(0, 300)}`);
    }
    return (JSON.parse(reply.body.toString('utf8')) as Created).id;
  }

  async deleteFile(token: string, id: string): Promise<void> {
    await this.http.json('DELETE', `/api/file/${id}`, undefined, token, 204);
  }

  async share(token: string, type: 'file' | 'folder', id: string): Promise<string> {
    return (await this.http.json<Created>('POST', '/api/share', { type, id }, token, 201)).id;
  }

  async health(): Promise<{ status: string; persistence?: string }> {
    return this.http.json('GET', '/health', undefined, null);
  }
}
