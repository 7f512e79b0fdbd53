import { SharePage } from './share-page.js';
import { pageAddressOf } from './share-api.js';
import { Message } from '../common/message.js';

export function App({ path }: { path: string }) {
  const address = pageAddressOf(path);
  return (
    <>
      <header class="site-header">
        <span class="brand">Coffer</span>
      </header>
      <main id="main" class="page">
        {address === null ? (
          <Message title="Page not found">There is nothing at this address.</Message>
        ) : (
          <SharePage id={address.shareId} folderPage={address.folderId !== null} />
        )}
      </main>
    </>
  );
}
