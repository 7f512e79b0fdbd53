import { formatSize } from '../common/format.js';
import type { LimitName, UsageView } from './api.js';

export const LIMIT_LABELS: Record<LimitName, string> = {
  storage: 'Storage',
  files: 'Files',
  folders: 'Folders',
  pastes: 'Pastes',
  collections: 'Collections',
  shares: 'Shares',
  tokens: 'API tokens',
  requests: 'File requests',
};

const shown = (name: LimitName, value: string | number) => (name === 'storage' ? formatSize(String(value)) : String(value));

/** All eight counters against their maxima, as bars a person can read (and a screen reader too: <meter>). */
export function UsageBars({ usage }: { usage: UsageView }) {
  return (
    <dl class="usage">
      {(Object.keys(LIMIT_LABELS) as LimitName[]).map((name) => {
        const { current, max } = usage[name];
        const ratio = Number(max) > 0 ? Math.min(1, Number(current) / Number(max)) : 1;
        return (
          <div class="usage-row" key={name}>
            <dt>{LIMIT_LABELS[name]}</dt>
            <dd>
              <meter min={0} max={1} low={0.75} high={0.9} optimum={0} value={ratio} aria-label={LIMIT_LABELS[name]} />
              <span>
                {shown(name, current)} of {shown(name, max)}
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
