import type { Context } from 'koa';
import type { ReaderInfo } from '../../../domain/index.js';
import { isLinkPreviewBot } from '../routes/link-preview-bots.js';
import { clientIp } from './client-address.js';

/** Who reads, for the activity of a share or request: the address (honouring TRUST_PROXY), the agent, a bot or not. */
export function readerOf(ctx: Context): ReaderInfo {
  const userAgent = ctx.get('User-Agent').slice(0, 512);
  return { ip: clientIp(ctx), userAgent, bot: isLinkPreviewBot(userAgent) };
}
