import { formatSize } from '../common/format.js';
import { previewKind } from '../common/preview.js';
import { ZipLink } from './file-actions.js';
import { collectionPath, fileUrl, type CollectionView } from './share-api.js';
import { useLoad } from './use-load.js';
import { FileList } from './file-list.js';

interface Props {
  shareId: string;
  collectionId: string;
  costly: boolean;
}

/** A collection: its pictures as a grid (each a link to the full picture), every file in a list with its download. */
export function CollectionGrid({ shareId, collectionId, costly }: Props) {
  const collection = useLoad<CollectionView>(collectionPath(shareId, collectionId));
  if (collection.kind === 'loading') return <p role="status">Loading the collection…</p>;
  if (collection.kind === 'failed') return <p class="problem">{collection.message}</p>;
  const { files } = collection.value;
  // On a share with a download maximum each picture would use one: the list alone is shown.
  const pictures = costly ? [] : files.filter((file) => previewKind(file) === 'image');

  return (
    <section class="browser" aria-label="Collection contents">
      <ZipLink shareId={shareId} />
      {files.length === 0 && <p class="note">This collection is empty.</p>}
      {pictures.length > 0 && (
        <ul class="grid" aria-label="Pictures">
          {pictures.map((file) => (
            <li key={file.id}>
              <a href={fileUrl(shareId, file.id, 'preview')} target="_blank" rel="noopener">
                <img src={fileUrl(shareId, file.id, 'preview')} alt={file.name} loading="lazy" />
              </a>
              <span class="grid-caption">
                {file.name} · {formatSize(file.size)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <FileList shareId={shareId} files={files} costly={costly} />
    </section>
  );
}
