import type { PageData, PageShare } from './page-data.js';

/** One OpenGraph or Twitter card tag. */
export interface CardTag {
  /** `property` for og:*, `name` for twitter:* */
  attribute: 'property' | 'name';
  key: string;
  value: string;
}

// Only what a chat app's card can show inline: a picture or a video. SVG never (active content).
const CARD_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const CARD_VIDEO = /^video\/(mp4|webm)$/;

const formatBytes = (size: string): string => {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = Number(size);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function describe(share: PageShare): { title: string; description: string } {
  const by = `shared by ${share.owner.username}`;
  if (share.file) return { title: share.file.name, description: `${formatBytes(share.file.size)} · ${by}` };
  if (share.paste) return { title: share.paste.name, description: `Paste (${share.paste.type}) · ${by}` };
  if (share.folder) {
    const { name, fileCount, folderCount } = share.folder;
    const contents = `${plural(fileCount, 'file', 'files')}, ${plural(folderCount, 'folder', 'folders')}`;
    return { title: name, description: `Folder · ${contents} · ${by}` };
  }
  const collection = share.collection!;
  return {
    title: collection.name,
    description: `Collection · ${plural(collection.fileCount, 'file', 'files')} · ${by}`,
  };
}

const TITLES: Record<Exclude<PageData['state'], 'open'>, { title: string; description: string }> = {
  locked: { title: 'Protected share', description: 'This share is protected by a password.' },
  'not-found': { title: 'Share not found', description: 'This link does not lead to a share.' },
  gone: { title: 'Share no longer available', description: 'This share has expired or reached its limit.' },
  throttled: { title: 'Coffer', description: 'Too many requests.' },
};

/**
 * The page's title and card. A protected share tells only that it is protected: no name, no owner, no picture.
 * The card's picture or video is the share's own content address, which a bot fetches without counting.
 */
export function shareCard(data: PageData, pageUrl: string): { title: string; tags: CardTag[] } {
  const { title, description } = data.state === 'open' ? describe(data.share) : TITLES[data.state];
  const og = (key: string, value: string): CardTag => ({ attribute: 'property', key: `og:${key}`, value });
  const tw = (key: string, value: string): CardTag => ({ attribute: 'name', key: `twitter:${key}`, value });
  const tags = [og('site_name', 'Coffer'), og('type', 'website'), og('url', pageUrl), og('title', title)];
  tags.push(og('description', description), tw('title', title), tw('description', description));
  const file = data.state === 'open' ? data.share.file : null;
  const contentUrl = `${pageUrl}/content`;
  if (file && CARD_IMAGE.test(file.mime)) {
    tags.push(og('image', contentUrl), og('image:type', file.mime), og('image:alt', file.name));
    tags.push(tw('card', 'summary_large_image'), tw('image', contentUrl));
  } else if (file && CARD_VIDEO.test(file.mime)) {
    tags.push(og('video', contentUrl), og('video:type', file.mime), tw('card', 'summary'));
  } else {
    tags.push(tw('card', 'summary'));
  }
  return { title, tags };
}
