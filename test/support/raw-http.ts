import { connect, createServer, type Socket } from 'node:net';

/** A response read off the wire, with its header block exactly as the server wrote it. */
export interface RawReply {
  status: number;
  /** The status line and header lines, as sent. */
  head: string;
  headers: string[];
  body: string;
  /** Milliseconds from connecting until the server closed the connection (or the read gave up). */
  elapsedMs: number;
}

export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

/**
 * The head of a `POST /api/file` whose one file part follows: the caller writes the file's bytes (and, if it
 * wants, the closing boundary `\r\n--B--\r\n`). The boundary is `B`.
 */
export function uploadHead(token: string, contentLength: number): string {
  return [
    'POST /api/file HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: token ${token}`,
    'Content-Type: multipart/form-data; boundary=B',
    `Content-Length: ${contentLength}`,
    '',
    '--B',
    'Content-Disposition: form-data; name="file"; filename="big.bin"',
    'Content-Type: application/octet-stream',
    '',
    '',
  ].join('\r\n');
}

/** Everything the server sends until it closes the connection, or until `timeoutMs`. */
export function readUntilClosed(socket: Socket, timeoutMs = 10_000): Promise<RawReply> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1'), Date.now() - started));
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, timeoutMs);
    socket.once('close', done);
  });
}

/** Sends `data` as is (nothing is added or escaped) and reads the reply off the wire. */
export async function rawRequest(url: string, data: string | Buffer, timeoutMs?: number): Promise<RawReply> {
  const socket = await openSocket(url);
  const reply = readUntilClosed(socket, timeoutMs);
  socket.write(data);
  return reply;
}

function parse(raw: string, elapsedMs: number): RawReply {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const lines = head.split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  return { status, head, headers: lines.slice(1), body: end === -1 ? '' : raw.slice(end + 4), elapsedMs };
}

/** A loopback port nothing listens on right now (for a child process to take). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
