import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { describeError } from '../ui.js';
import type { Entry } from './entries.js';
import { EntryFacts, EntryName, Thumbnail } from './entry-row.js';
import { DRAG_TYPE } from './move.js';

/** One entry in the list or grid: select it, open it, rename it in place, drag it onto a folder, or open its actions. */
export function EntryView({
  entry,
  layout,
  selected,
  highlighted = false,
  onToggle,
  onActions,
  onDropEntries,
  onChanged,
}: {
  entry: Entry;
  layout: 'list' | 'grid';
  selected: boolean;
  /** The entry the address names (`?view=`): marked, so the eye finds it. */
  highlighted?: boolean;
  onToggle: () => void;
  onActions: (entry: Entry, rename: () => void) => void;
  onDropEntries: (ids: string[], folderId: string) => void;
  onChanged: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const renamed = async (name: string | null) => {
    setRenaming(false);
    if (name === null || name === entry.name) return;
    try {
      if (entry.kind === 'folder') await api.updateFolder(entry.id, { name });
      else await api.updateFile(entry.id, { name });
      onChanged();
    } catch (err) {
      setProblem(describeError(err));
    }
  };
  const acceptsDrop = entry.kind === 'folder';
  return (
    <div
      class={`entry entry-${layout}${selected ? ' selected' : ''}${highlighted ? ' highlighted' : ''}`}
      role="gridcell"
      draggable={!renaming}
      onDragStart={(e) => e.dataTransfer?.setData(DRAG_TYPE, entry.id)}
      onDragOver={(e) => acceptsDrop && e.dataTransfer?.types.includes(DRAG_TYPE) && e.preventDefault()}
      onDrop={(e) => {
        const ids = e.dataTransfer?.getData(DRAG_TYPE);
        if (!acceptsDrop || !ids) return;
        e.preventDefault();
        e.stopPropagation();
        onDropEntries(ids.split(','), entry.id);
      }}
    >
      <input type="checkbox" checked={selected} onChange={onToggle} aria-label={`Select ${entry.name}`} />
      {layout === 'grid' && <Thumbnail entry={entry} />}
      <EntryName entry={entry} renaming={renaming} onRenamed={(name) => void renamed(name)} />
      {layout === 'list' && <EntryFacts entry={entry} />}
      {problem && <span class="problem">{problem}</span>}
      <button type="button" class="more" aria-label={`Actions for ${entry.name}`} onClick={() => onActions(entry, () => setRenaming(true))}>
        ⋯
      </button>
    </div>
  );
}
