import { api } from './api.js';
import { ErrorNote, Section, usePageData } from './ui.js';
import { UsageBars } from './usage-bars.js';

export function UsagePage() {
  const { data: usage, error } = usePageData('Usage', api.usage);
  return (
    <Section title="Usage">
      <ErrorNote error={error} />
      {usage ? <UsageBars usage={usage} /> : !error && <p>Loading…</p>}
    </Section>
  );
}
