import { useEffect, useState } from 'preact/hooks';
import { formatSize } from '../common/format.js';
import { api, type CollectionView } from './api.js';
import { ShareDialog } from './share-dialog.js';
import { ConfirmButton, ErrorNote, Link, Section, useAction, usePageData, ViewerLink } from './ui.js';
import { Viewer, type Viewable } from './viewer.js';

export function CollectionsPage() {
  const { data: collections, error, run, reload } = usePageData('Collections', api.collections);
  const [name, setName] = useState('');
  const [sharing, setSharing] = useState<string | null>(null);
  return (
    <Section title="Collections">
      <form class="row" onSubmit={(e) => (e.preventDefault(), void run(async () => (await api.createCollection(name), setName(''), await reload())))}>
        <label>
          Name
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary">
          Create collection
        </button>
      </form>
      <ErrorNote error={error} />
      <p class="muted">Add files from the Files page: select them, then “Add to collection”.</p>
      <ul class="plain-list">
        {collections?.map((c) => (
          <li key={c.id} class="row spread">
            <Link href={`/collections/${encodeURIComponent(c.id)}`}>{c.name}</Link>
            <span class="muted">{c.count} files</span>
            <div class="row">
              <button type="button" onClick={() => setSharing(c.id)}>
                Share
              </button>
              <ConfirmButton label="Delete" confirm={`Delete ${c.name}? Its files stay.`} onConfirm={() => run(async () => (await api.deleteCollection(c.id), await reload()))} />
            </div>
            {sharing === c.id && <ShareDialog type="collection" id={c.id} name={c.name} url={c.url} onDone={() => (setSharing(null), void reload())} />}
          </li>
        ))}
      </ul>
    </Section>
  );
}

const loadFile = async (id: string): Promise<Viewable> => ({ kind: 'file', item: await api.file(id) });

export function CollectionPage({ id, viewId }: { id: string; viewId: string | null }) {
  const [collection, setCollection] = useState<CollectionView | null>(null);
  const [, error, run] = useAction();
  const load = () => run(async () => setCollection(await api.collection(id)));
  useEffect(() => {
    void load();
  }, [id]);
  useEffect(() => {
    if (collection) document.title = `${collection.name} · Coffer`;
  }, [collection]);
  return (
    <Section title={collection?.name ?? 'Collection'}>
      <ErrorNote error={error} />
      <ul class="plain-list">
        {collection?.files.map((file) => (
          <li key={file.id} class="row spread">
            <ViewerLink id={file.id}>{file.name}</ViewerLink>
            <span class="muted">{formatSize(file.size)}</span>
            <button type="button" onClick={() => void run(async () => (await api.removeFromCollection(id, file.id), await load()))}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {collection?.files.length === 0 && <p>This collection is empty.</p>}
      {viewId && (
        <Viewer id={viewId} items={collection?.files.map((item): Viewable => ({ kind: 'file', item })) ?? []} load={loadFile}
          onChanged={() => void load()} />
      )}
    </Section>
  );
}
