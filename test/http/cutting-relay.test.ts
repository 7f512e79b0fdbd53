import { Socket, connect, createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIB, cuttingRelay, sampleBytes } from '../support/tus-client.js';

/**
 * The relay stands for a network that drops a connection, so what reaches the server must be a prefix of what the
 * client sent. A server that reads slowly keeps the relay's writes queued, which is when a relay that went on
 * forwarding after its cut delivered bytes past a hole (and the tus test on GridFS then saw a wrong digest).
 */
describe('cuttingRelay', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('delivers exactly the bytes before the cut, in order, even to a slow reader', async () => {
    const received: Buffer[] = [];
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const sockets = new Set<Socket>();
    const target = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', upstreamClosed);
      // Nothing read at first, so the kernel's buffers fill and the relay's writes queue; then a slow trickle.
      socket.pause();
      setTimeout(() => socket.resume(), 300);
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        socket.pause();
        setTimeout(() => socket.resume(), 5);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          target.close(() => resolve());
        }),
    );
    // A congested link: writes towards the server complete late, while the client's bytes keep coming in.
    const write = Socket.prototype.write;
    const targetPort = (target.address() as AddressInfo).port;
    vi.spyOn(Socket.prototype, 'write').mockImplementation(function (this: Socket, ...args: unknown[]) {
      const done = args.at(-1);
      if (this.remotePort !== targetPort || typeof done !== 'function') return write.apply(this, args as never);
      return write.apply(this, [...args.slice(0, -1), () => setTimeout(() => (done as () => void)(), 50)] as never);
    });
    closers.push(async () => void vi.restoreAllMocks());
    const data = sampleBytes(32 * MIB, 3);
    const cutAt = 8 * MIB + 777;
    const relay = await cuttingRelay(`http://127.0.0.1:${(target.address() as AddressInfo).port}`, cutAt);
    closers.push(() => relay.close());
    const { port } = new URL(relay.url);
    const client = connect(Number(port), '127.0.0.1');
    client.on('error', () => {});
    for (let at = 0; at < data.length; at += 64 * 1024) client.write(data.subarray(at, at + 64 * 1024));

    await closed;
    const got = Buffer.concat(received);
    expect(relay.cuts).toBe(1);
    expect(got.length).toBe(cutAt);
    expect(got.equals(data.subarray(0, got.length))).toBe(true);
    client.destroy();
  }, 60_000);
});
