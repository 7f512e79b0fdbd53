import { useEffect, useState } from 'preact/hooks';
import { api, type UsageView } from './api.js';
import { ErrorNote, Section } from './ui.js';
import { UsageBars } from './usage-bars.js';

export function UsagePage() {
  const [usage, setUsage] = useState<UsageView | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    document.title = 'Usage · Coffer';
    api.usage().then(setUsage, setError);
  }, []);
  return (
    <Section title="Usage">
      <ErrorNote error={error} />
      {usage ? <UsageBars usage={usage} /> : !error && <p>Loading…</p>}
    </Section>
  );
}
