/**
 * The crawlers chat apps and social sites send to unfurl a pasted link. They read the page and its card image, and
 * none of that is a person opening the share: it counts no view or download and uses up no limit. A client can
 * claim to be one of them, so what they are shown is what a card shows anyway (see docs/SECURITY.md).
 */
const BOTS = [
  'Slackbot',
  'Slack-ImgProxy',
  'Twitterbot',
  'facebookexternalhit',
  'Facebot',
  'Discordbot',
  'TelegramBot',
  'WhatsApp',
  'LinkedInBot',
  'Mastodon',
  'SkypeUriPreview',
  'Iframely',
  'Embedly',
  'redditbot',
  'Pinterestbot',
  'vkShare',
  'Applebot',
  'MicrosoftPreview',
  'Google-PageRenderer',
  'Bluesky Cardyb',
  'Matrix-Synapse',
];

const PATTERN = new RegExp(BOTS.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

export function isLinkPreviewBot(userAgent: string): boolean {
  return userAgent !== '' && PATTERN.test(userAgent);
}

/**
 * A prefetch or prerender the browser makes on its own (speculation rules, `<link rel=prefetch>`): `Sec-Purpose`
 * (or the older `Purpose: prefetch`). Nobody has opened the share yet, so like a bot's read it counts nothing, and a
 * page elsewhere cannot spend a share's views or downloads by asking the browser to fetch ahead.
 */
export const isSpeculative = (secPurpose: string, purpose: string): boolean =>
  secPurpose !== '' || /prefetch/i.test(purpose);
