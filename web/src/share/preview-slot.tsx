import { useState } from 'preact/hooks';
import { Preview, previewKind, type PreviewProps } from '../common/preview.js';

/**
 * A preview shown at once, or, on a share with a download maximum (where loading the bytes uses a download), only
 * when the visitor asks for it.
 */
export function PreviewSlot(preview: PreviewProps) {
  const { file, costly } = preview;
  const [wanted, setWanted] = useState(!costly);
  if (previewKind(file) === null) {
    return <p class="note">No preview for this kind of file: download it to open it.</p>;
  }
  if (!wanted) {
    return (
      <p class="note">
        <button type="button" class="button secondary" onClick={() => setWanted(true)}>
          Show preview
        </button>{' '}
        This share allows a limited number of downloads; a preview uses one.
      </p>
    );
  }
  return (
    <div class="preview">
      <Preview {...preview} />
    </div>
  );
}
