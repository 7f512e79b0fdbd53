import type { Reply, RequestOptions } from './http.js';

type Request = (method: string, path: string, options?: RequestOptions) => Promise<Reply>;

/** A share's views and downloads as its owner lists them (reading the share itself would count one). */
export async function shareCounts(request: Request, token: string, id: string) {
  const { body } = await request('GET', '/api/share', { token });
  const share = (body as { id: string; views: number; downloads: number }[]).find((s) => s.id === id)!;
  return { views: share.views, downloads: share.downloads };
}
