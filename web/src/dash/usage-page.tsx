import { SIZE_UNITS_NOTE } from '../common/format.js';
import { api } from './api.js';
import { ErrorNote, Section, usePageData } from './ui.js';
import { UsageBars } from './usage-bars.js';

export function UsagePage() {
  const { data: usage, error } = usePageData('Usage', api.usage);
  return (
    <Section title="Usage">
      <ErrorNote error={error} />
      {usage ? <UsageBars usage={usage} /> : !error && <p>Loading…</p>}
      <p class="hint muted">Sizes in decimal units: {SIZE_UNITS_NOTE}.</p>
    </Section>
  );
}
