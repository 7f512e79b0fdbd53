import { useEffect, useState } from 'preact/hooks';
import { loadJson } from './share-api.js';

export type Loaded<T> = { kind: 'loading' } | { kind: 'ok'; value: T } | { kind: 'failed'; message: string };

/** Loads JSON from one of the share's own routes once per path. */
export function useLoad<T>(path: string): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ kind: 'loading' });
    loadJson<T>(path).then(
      (value) => live && setState({ kind: 'ok', value }),
      (err: unknown) => live && setState({ kind: 'failed', message: err instanceof Error ? err.message : 'Failed.' }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return state;
}
