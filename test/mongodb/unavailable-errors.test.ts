import {
  MongoError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, unavailableWhenDisconnected } from '../../src/adapters/mongodb/index.js';
import { DomainError } from '../../src/domain/errors.js';

const socketError = (code: string) => Object.assign(new Error(`socket ${code}`), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a network error', new MongoNetworkError('connection reset')],
    ['a network timeout', new MongoNetworkTimeoutError('timed out')],
    ['no server to select', new MongoServerSelectionError('no primary', {} as never)],
    ['a client not connected', new MongoNotConnectedError('not connected')],
    ['a closed topology', new MongoTopologyClosedError()],
    ['a pool that was cleared', Object.defineProperty(new MongoError('pool'), 'name', { value: 'MongoPoolClosedError' })],
    ['a primary stepping down', new MongoServerError({ code: 189, errmsg: 'PrimarySteppedDown' })],
    ['a node shutting down', new MongoServerError({ code: 91, errmsg: 'ShutdownInProgress' })],
    ['an unwrapped EPIPE from the driver', socketError('EPIPE')],
  ])('is true for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a duplicate key', new MongoServerError({ code: 11000, errmsg: 'E11000' })],
    ['a bad query', new MongoServerError({ code: 2, errmsg: 'BadValue' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['a file system error', socketError('ENOENT')],
    ['a domain error', new DomainError('not_found', 'File not found')],
    ['no error at all', undefined],
  ])('is false for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('unavailableWhenDisconnected', () => {
  class Adapter {
    calls = 0;
    readonly label = 'adapter';
    async read(fail?: Error): Promise<string> {
      this.calls++;
      if (fail) throw fail;
      return this.label;
    }
    sync(fail: Error): never {
      throw fail;
    }
  }

  it('passes results, properties and `this` through untouched', async () => {
    const adapter = unavailableWhenDisconnected(new Adapter());
    expect(await adapter.read()).toBe('adapter');
    expect(adapter.label).toBe('adapter');
    expect(adapter.calls).toBe(1);
  });

  it('turns a lost connection into the core’s unavailable error, keeping the driver error as its cause', async () => {
    const adapter = unavailableWhenDisconnected(new Adapter());
    const lost = new MongoNetworkError('connection closed');
    const err = await adapter.read(lost).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'unavailable', cause: lost });
    expect(() => adapter.sync(lost)).toThrow(DomainError);
  });

  it('lets every other failure through as it is', async () => {
    const adapter = unavailableWhenDisconnected(new Adapter());
    const duplicate = new MongoServerError({ code: 11000, errmsg: 'E11000' });
    await expect(adapter.read(duplicate)).rejects.toBe(duplicate);
    const bug = new TypeError('bug');
    expect(() => adapter.sync(bug)).toThrow(bug);
  });
});
