import type { Paste, Share } from '../../domain/index.js';
import { badRequest } from '../../domain/index.js';
import type { Core, FileContent } from '../contract.js';
import { fileContent } from '../files/file-content.js';
import type { ByteRange, Ports } from '../ports/index.js';
import { assertActive, countingDownloads, findShare, unlockShare } from './share-access.js';
import { owned } from '../owned.js';

type Port = Core['openShareContent'];

/**
 * A shared file's bytes or a shared paste's raw text. Counts no view: only reading the share itself does. Opening
 * it from byte 0 counts a download (countingDownloads).
 */
export class OpenShareContent implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'files' | 'pastes' | 'blobs' | 'clock' | 'secrets'
    >,
  ) {}

  async execute({ actor, id, ...key }: Parameters<Port['execute']>[0]): Promise<FileContent> {
    const share = await findShare(this.p, id, key.client);
    assertActive(this.p, share, actor, key.reader);
    await unlockShare(this.p, share, key, actor);
    const fileId = share.type === 'file' ? share.itemId : null;
    return countingDownloads(this.p, await this.content(share), share, actor, key, fileId);
  }

  private async content(share: Share): Promise<FileContent> {
    switch (share.type) {
      case 'file':
        return fileContent(this.p, owned(await this.p.files.findById(share.itemId), share.ownerId, 'Share'));
      case 'paste':
        return pasteContent(owned(await this.p.pastes.findById(share.itemId), share.ownerId, 'Share'));
      default:
        throw badRequest('Only file and paste shares have content');
    }
  }
}

const encoder = new TextEncoder();

function pasteContent(paste: Paste): FileContent {
  return {
    name: paste.name,
    mime: 'text/plain',
    charset: 'utf-8',
    size: paste.size,
    // A paste changes in place, so its validator follows the last change rather than an immutable blob.
    etag: `"${paste.id}-${paste.updatedAt.getTime()}"`,
    lastModified: paste.updatedAt,
    disposition: 'inline',
    active: false,
    open: async (range?: ByteRange) => {
      const bytes = encoder.encode(paste.content);
      return chunks(range ? bytes.subarray(range.start, range.end + 1) : bytes);
    },
  };
}

async function* chunks(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  if (bytes.byteLength > 0) yield bytes;
}
