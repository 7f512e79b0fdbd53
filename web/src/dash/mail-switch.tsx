import { useState } from 'preact/hooks';
import { ErrorNote, useAction } from './ui.js';

/** One notification switch ("email me when …"), saved as it is flipped. */
export function MailSwitch({ label, on, save }: { label: string; on: boolean; save: (on: boolean) => Promise<unknown> }) {
  const [checked, setChecked] = useState(on);
  const [busy, error, run] = useAction();
  // The box follows the click at once (a controlled box left unchanged until the answer reads as a click that did
  // nothing); a refused save puts it back and says why.
  const flip = (value: boolean) => {
    setChecked(value);
    void run(async () => {
      try {
        await save(value);
      } catch (err) {
        setChecked(!value);
        throw err;
      }
    });
  };
  return (
    <>
      <label class="check">
        <input type="checkbox" checked={checked} disabled={busy} onChange={(e) => flip(e.currentTarget.checked)} /> {label}
      </label>
      <ErrorNote error={error} />
    </>
  );
}
