import type { Ports } from '../../src/application/index.js';

/** What a killed process does next: nothing, ever. */
const never = () => new Promise<never>(() => {});

/** Ports that only carry values: nothing about them can outlive a process. */
const INERT = new Set<keyof Ports>(['settings', 'clock', 'ids', 'instance', 'hasher', 'secrets']);

/**
 * Ports an instance can be "killed" through, as SIGKILL kills a process: from the kill on, no call it makes reaches
 * the database or the store, no answer of a call under way reaches it, and a byte stream it hands the store gives no
 * further byte. What was written before the kill stays written; no cleanup of the dead instance ever runs.
 */
export function killable(): { wrap: (ports: Ports) => Ports; kill(): void } {
  let killed = false;
  const stopped = <T>(value: T): T | Promise<never> => (killed ? never() : value);

  function frozenStream(content: AsyncIterable<unknown>): AsyncIterable<unknown> {
    return {
      [Symbol.asyncIterator]() {
        const source = content[Symbol.asyncIterator]();
        return {
          next: () => (killed ? never() : source.next().then(stopped)),
          return: (value?: unknown) => (killed ? never() : (source.return?.(value) ?? Promise.resolve({ done: true, value }))),
        } as AsyncIterator<unknown>;
      },
    };
  }

  function wrapPort<T extends object>(port: T): T {
    return new Proxy(port, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (killed) return never();
          const streamed = args.map((arg) =>
            arg !== null && typeof arg === 'object' && Symbol.asyncIterator in arg ? frozenStream(arg as AsyncIterable<unknown>) : arg,
          );
          const result = (value as (...a: unknown[]) => unknown).apply(target, streamed);
          return result instanceof Promise ? result.then(stopped) : result;
        };
      },
    });
  }

  return {
    wrap: (ports) =>
      Object.fromEntries(
        Object.entries(ports).map(([name, port]) => [name, INERT.has(name as keyof Ports) ? port : wrapPort(port)]),
      ) as unknown as Ports,
    kill: () => {
      killed = true;
    },
  };
}
