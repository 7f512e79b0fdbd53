import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, CofferApi, USER } from './coffer.js';
import { HttpClient } from './http-client.js';
import { inParallel, latencyOf, timeSequential } from './stats.js';

const dir = mkdtempSync(join(tmpdir(), 'subtree-'));
import { spawn } from 'node:child_process';
const proc = spawn(process.execPath, [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), '--import', 'tsx', 'src/main.ts'], {
  env: { ...process.env, PORT: '3990', HOST: '127.0.0.1', PERSISTENCE: 'memory', DATA_DIR: dir, LOG_LEVEL: 'warn', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password,
  LIMIT_FILES: '1000000', LIMIT_FOLDERS: '100000' }, stdio: 'inherit' });
const coffer = { origin: 'http://127.0.0.1:3990', stop: async () => { proc.kill('SIGTERM'); await new Promise((r) => proc.once('exit', r)); } };
for (let i = 0; i < 100; i++) { const ok = await new HttpClient(coffer.origin, 1).send({ path: '/health' }).then((r) => r.status === 200, () => false); if (ok) break; await new Promise((r) => setTimeout(r, 200)); }
const http = new HttpClient(coffer.origin, 24);
const api = new CofferApi(http);
const admin = await api.login(ADMIN.username, ADMIN.password);
await api.createUser(admin, USER.username, USER.password);
const token = await api.login(USER.username, USER.password);
const area = await api.createFolder(token, 'area', null);
const folders = [area];
for (let s = 0; s < 9; s++) folders.push(await api.createFolder(token, `section-${s}`, area));
for (let k = 0; k < 90; k++) folders.push(await api.createFolder(token, `shelf-${k}`, folders[1 + (k % 9)]!));
const files = Number(process.env.FILES ?? 10000);
await inParallel(files, 24, async (i) => {
  await api.uploadSmall(token, folders[i % folders.length]!, `kilo-${i}.txt`, Buffer.from(`f ${i}`));
});
console.log('seeded');
const one = new HttpClient(coffer.origin, 1);
const samples = await timeSequential(40, 4, async () => {
  const r = await one.send({ path: `/api/folder/${area}`, headers: { authorization: `token ${token}` } });
  if (r.status !== 200) throw new Error(String(r.status));
});
console.log(latencyOf(samples));
one.close(); http.close();
await coffer.stop();
