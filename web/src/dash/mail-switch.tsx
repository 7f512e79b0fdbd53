import { useState } from 'preact/hooks';
import { ErrorNote, useAction } from './ui.js';

/** One notification switch ("email me when …"), saved as it is flipped. */
export function MailSwitch({ label, on, save }: { label: string; on: boolean; save: (on: boolean) => Promise<unknown> }) {
  const [checked, setChecked] = useState(on);
  const [busy, error, run] = useAction();
  const flip = (value: boolean) =>
    void run(async () => {
      await save(value);
      setChecked(value);
    });
  return (
    <>
      <label class="check">
        <input type="checkbox" checked={checked} disabled={busy} onChange={(e) => flip(e.currentTarget.checked)} /> {label}
      </label>
      <ErrorNote error={error} />
    </>
  );
}
