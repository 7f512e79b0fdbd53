import type { NoticeKey, Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'mailNotices'>;

/** Which of these shares or requests have mail notices on. */
export class NotifyOf {
  constructor(private readonly p: Deps) {}

  async execute({ kind, ids }: { kind: 'share' | 'request'; ids: readonly string[] }): Promise<Set<string>> {
    const keys = ids.map((id) => `${kind}:${id}` as NoticeKey);
    const wanted = await this.p.mailNotices.wanted(keys);
    return new Set([...wanted].map((key) => key.slice(kind.length + 1)));
  }
}
