import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { EceError, cipherLength, decryptStream, encryptStream } from '../web/src/common/e2e/ece.js';
import { keyFragment, keyFromFragment, newFileKey } from '../web/src/common/e2e/file-key.js';
import { openMetadata, sealMetadata } from '../web/src/common/e2e/metadata.js';

const USAGE = `Usage:
  coffer-e2e upload <file> --server <url> --token <token> [--type <mime>] [--password <p>]
                    [--expires <ISO time>] [--max-views <n>] [--max-downloads <n>]
      Encrypts <file> while it streams, uploads it (tus), shares it and prints the link with its key.
  coffer-e2e download <link> [-o <file>|-] [--password <p>]
      Streams the shared file, decrypts and checks every record; writes the file under its own name
      (or <file>, or standard output with -o -). Nothing is left behind if any record fails.
`;

/** Ciphertext goes up in PATCHes of this many bytes: what the command holds at once. */
const CHUNK = 16 * 1024 * 1024;
const TRIES = 3;

class CliError extends Error {}

/**
 * `--token -abc…` read as `--token=-abc…`: a value may begin with a dash (a token or a password may), which parseArgs
 * would otherwise refuse as ambiguous.
 */
function glued(args: string[], valued: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valued.includes(arg) && i + 1 < args.length) out.push(`${arg}=${args[++i]!}`);
    else out.push(arg);
  }
  return out;
}

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

/** Runs the command; returns the exit status (0 done, 1 refused or failed, 2 misused). */
export async function main(argv: string[]): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === 'upload') return await upload(rest);
    if (command === 'download') return await download(rest);
    err(USAGE);
    return 2;
  } catch (error) {
    if (error instanceof EceError) err(`coffer-e2e: refused: ${error.message}\n`);
    else if (error instanceof CliError) err(`coffer-e2e: ${error.message}\n`);
    else err(`coffer-e2e: ${(error as Error).message}\n`);
    return 1;
  }
}

const TYPES: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv', '.json': 'application/json', '.pdf': 'application/pdf',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.svg': 'image/svg+xml', '.mp4': 'video/mp4', '.webm': 'video/webm', '.mp3': 'audio/mpeg', '.zip': 'application/zip',
  '.html': 'text/html', '.tar': 'application/x-tar', '.gz': 'application/gzip',
};

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function upload(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: glued(args, ['--server', '--token', '--type', '--password', '--expires', '--max-views', '--max-downloads']),
    allowPositionals: true,
    options: {
      server: { type: 'string' }, token: { type: 'string' }, type: { type: 'string' }, password: { type: 'string' },
      expires: { type: 'string' }, 'max-views': { type: 'string' }, 'max-downloads': { type: 'string' },
    },
  });
  const [path] = positionals;
  if (!path || positionals.length > 1 || !values.server || !values.token) throw new CliError(`upload takes one file, --server and --token\n${USAGE}`);
  const size = (await stat(path)).size;
  const key = newFileKey();
  const type = values.type ?? TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const metadata = await sealMetadata(key, { name: basename(path), type, size });
  const options: [string, string | undefined][] = [
    ['share', 'true'], ['encryptedMetadata', metadata], ['password', values.password], ['expiresAt', values.expires],
    ['maxViews', values['max-views']], ['maxDownloads', values['max-downloads']],
  ];
  const server = values.server.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${values.token}`, 'tus-resumable': '1.0.0' };
  const created = await fetch(`${server}/api/upload/tus`, {
    method: 'POST',
    headers: {
      ...auth,
      'upload-length': String(cipherLength(size)),
      'upload-metadata': options.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${b64(v!)}`).join(','),
    },
  });
  if (created.status !== 201) throw new CliError(await failure('The upload was refused', created));
  const location = new URL(created.headers.get('location')!, server).href;
  const source = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  let shareUrl: string | null = null;
  let offset = 0;
  for await (const chunk of chunks(source.pipeThrough(encryptStream(key)), CHUNK)) {
    const answer = await patch(location, auth, offset, chunk);
    offset += chunk.length;
    shareUrl = answer.headers.get('x-share-url') ?? shareUrl;
  }
  if (offset !== cipherLength(size)) throw new CliError('The file changed while it was read');
  if (!shareUrl) throw new CliError('The server made no share of the upload');
  out(`${shareUrl}${keyFragment(key)}\n`);
  return 0;
}

/** One PATCH, tried again after a failure once HEAD says the bytes did not land (the server keeps a PATCH whole or not at all). */
async function patch(location: string, auth: Record<string, string>, offset: number, body: Uint8Array): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let answer: Response | null = null;
    try {
      answer = await fetch(location, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body,
      });
      if (answer.status === 204) return answer;
      if (answer.status < 500 && answer.status !== 409) throw new CliError(await failure('The upload was refused', answer));
    } catch (error) {
      if (error instanceof CliError || attempt >= TRIES) throw error;
    }
    const state = await fetch(location, { method: 'HEAD', headers: auth });
    if (Number(state.headers.get('upload-offset')) === offset + body.length) return state;
    if (attempt >= TRIES) throw new CliError(answer ? await failure('The upload failed', answer) : 'The upload failed');
  }
}

/** The stream's bytes regrouped into pieces of `size` (the last shorter). */
async function* chunks(stream: ReadableStream<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let buffer = new Uint8Array(size);
  let filled = 0;
  for await (const part of stream) {
    let at = 0;
    while (at < part.length) {
      const n = Math.min(size - filled, part.length - at);
      buffer.set(part.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield buffer;
        buffer = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}

async function failure(what: string, answer: Response): Promise<string> {
  const body = (await answer.json().catch(() => null)) as { message?: string } | null;
  return `${what} (${answer.status}${body?.message ? `: ${body.message}` : ''})`;
}

async function download(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: glued(args, ['--output', '--password']),
    allowPositionals: true,
    options: { output: { type: 'string', short: 'o' }, password: { type: 'string' } },
  });
  const [link] = positionals;
  if (!link || positionals.length > 1) throw new CliError(`download takes one link\n${USAGE}`);
  const url = new URL(link);
  const key = keyFromFragment(url.hash);
  if (!key) throw new CliError('The link carries no key (#k=…): the file cannot be decrypted without it');
  const match = /^(.*)\/s\/([A-Za-z0-9_-]+)\/?$/.exec(url.pathname);
  if (!match) throw new CliError('That is not a share link (…/s/{id}#k=…)');
  const base = `${url.origin}${match[1]}`;
  const id = match[2]!;
  const headers: Record<string, string> = {};
  // A protected share answers its unlock with itself (and a grant cookie for its content); an open one, its API view.
  let share: Response;
  if (values.password !== undefined) {
    const unlocked = await fetch(`${base}/s/${id}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: values.password }),
    });
    if (unlocked.status !== 200) throw new CliError(await failure('The password was refused', unlocked));
    headers.cookie = (unlocked.headers.get('set-cookie') ?? '').split(';')[0]!;
    share = unlocked;
  } else {
    share = await fetch(`${base}/api/share/${id}`);
  }
  if (share.status !== 200) throw new CliError(await failure('The share cannot be read', share));
  const sealed = ((await share.json()) as { file?: { encryptedMetadata?: string } }).file?.encryptedMetadata;
  if (!sealed) throw new CliError('This share is not an end-to-end encrypted file');
  const metadata = await openMetadata(key, sealed).catch(() => {
    throw new CliError('The key in the link does not open this file: the link is wrong or incomplete');
  });
  const content = await fetch(`${base}/s/${id}/content`, { headers });
  if (content.status !== 200 || !content.body) throw new CliError(await failure('The file cannot be downloaded', content));
  const plain = content.body.pipeThrough(decryptStream(key));
  const target = values.output ?? safeName(metadata.name);
  if (target === '-') {
    await plain.pipeTo(Writable.toWeb(process.stdout));
    return 0;
  }
  // Written aside and renamed only once every record checked out, so a refused file never stands under its name.
  const partial = `${target}.part`;
  try {
    await plain.pipeTo(Writable.toWeb(createWriteStream(partial, { flags: 'wx' })));
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, target);
  err(`${target}: ${metadata.size} bytes, ${metadata.type}\n`);
  return 0;
}

/** The file's own name, kept to a plain name in the current directory. */
function safeName(name: string): string {
  const plain = [...basename(name.replace(/\\/g, '/'))].filter((c) => c >= ' ').join('').trim();
  return plain === '' || plain === '.' || plain === '..' ? 'download' : plain;
}
