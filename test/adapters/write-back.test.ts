import type { FileHandle } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileWriteBack, WRITE_BACK_BYTES, writeAll, writeBackAhead } from '../../src/adapters/fs-blob-store/write-back.js';

/** A handle whose flushes finish only when the test says so. */
function fakeHandle() {
  const pending: Array<() => void> = [];
  const handle = {
    datasync: () => new Promise<void>((resolve) => pending.push(resolve)),
  } as unknown as FileHandle;
  return { handle, pending };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('head starts of the write-back', () => {
  it('run one at a time, the others in order, and a waiting one can be called off', async () => {
    const [a, b, c] = [fakeHandle(), fakeHandle(), fakeHandle()];
    const first = writeBackAhead(a.handle)!;
    const second = writeBackAhead(b.handle)!;
    const third = writeBackAhead(c.handle)!;
    expect([a.pending.length, b.pending.length, c.pending.length]).toEqual([1, 0, 0]);
    expect(first.callOff()).toBe(false); // begun: it runs to its end
    expect(second.callOff()).toBe(true);
    await second.done;
    a.pending[0]!();
    await first.done;
    await tick();
    // The called-off one is passed over; the third begins.
    expect([b.pending.length, c.pending.length]).toEqual([0, 1]);
    c.pending[0]!();
    await third.done;
  });

  it('are skipped, not queued without end, once 64 wait', async () => {
    const running = fakeHandle();
    const head = writeBackAhead(running.handle)!;
    const waiting = Array.from({ length: 64 }, () => writeBackAhead(fakeHandle().handle));
    expect(waiting.every((start) => start !== null)).toBe(true);
    expect(writeBackAhead(fakeHandle().handle)).toBeNull();
    for (const start of waiting) start!.callOff();
    running.pending[0]!();
    await head.done;
  });

  it('never reject when the flush fails', async () => {
    const handle = { datasync: () => Promise.reject(new Error('EIO')) } as unknown as FileHandle;
    await expect(writeBackAhead(handle)!.done).resolves.toBeUndefined();
  });
});

describe("one file's write-back", () => {
  it('starts once per WRITE_BACK_BYTES written, never while its last one runs, and settles after it', async () => {
    const file = fakeHandle();
    const writeBack = new FileWriteBack(file.handle);
    writeBack.wrote(WRITE_BACK_BYTES - 1);
    expect(file.pending.length).toBe(0);
    writeBack.wrote(1);
    expect(file.pending.length).toBe(1);
    writeBack.wrote(2 * WRITE_BACK_BYTES); // the first still runs: no second one beside it
    writeBack.start();
    expect(file.pending.length).toBe(1);
    let settled = false;
    void writeBack.settled().then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    file.pending[0]!();
    await writeBack.callOff();
    expect(settled).toBe(true);
    writeBack.start();
    expect(file.pending.length).toBe(2);
    file.pending[1]!();
    await writeBack.settled();
  });
});

describe('writeAll', () => {
  it('writes again what a short writev left, from where it stopped', async () => {
    const written: number[] = [];
    // Takes at most 5 bytes per call, as a disk near full or a signal may.
    const handle = {
      writev: async (chunks: Uint8Array[]) => {
        let room = 5;
        for (const chunk of chunks) {
          const n = Math.min(room, chunk.byteLength);
          written.push(...chunk.subarray(0, n));
          room -= n;
          if (room === 0) break;
        }
        return { bytesWritten: 5 - room, buffers: chunks };
      },
    } as unknown as FileHandle;
    const pieces = [Uint8Array.of(1, 2, 3), new Uint8Array(0), Uint8Array.of(4, 5, 6, 7, 8, 9), Uint8Array.of(10, 11)];
    expect(await writeAll(handle, pieces)).toBe(11);
    expect(written).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
