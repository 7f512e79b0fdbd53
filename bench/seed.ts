import { CofferApi } from './coffer.js';
import { log, type Bench } from './context.js';
import { HttpClient } from './http-client.js';
import { inParallel, nowMs } from './stats.js';

/** Words in file and folder names, so substring queries hit 1/16 of the names, a handful, or none. */
export const WORDS = [
  'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel',
  'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa',
]; // prettier-ignore

export const AREAS = 10;

export interface Area {
  id: string;
  folderIds: string[];
  /** Entries below the area folder: its subfolders and every file in them and in itself. */
  entries: number;
}

/**
 * Builds the data set one area at a time: an area is a root folder with up to 9 sections, each holding shelves,
 * `folders / 10` folders in all, every one of them holding `files / folders` small files. Area 0 alone is the
 * first scale; all ten areas are the last.
 */
export class Seeder {
  readonly areas: Area[] = [];
  /** Files created per second, area by area. */
  readonly rates: number[] = [];
  private files = 0;
  private readonly foldersPerArea: number;
  private readonly filesPerFolder: number;

  constructor(private readonly b: Bench) {
    const total = b.plan.scales[b.plan.scales.length - 1] ?? 0;
    this.foldersPerArea = b.plan.folders / AREAS;
    this.filesPerFolder = total / b.plan.folders;
    if (!Number.isInteger(this.foldersPerArea) || !Number.isInteger(this.filesPerFolder)) {
      throw new Error('plan: folders must divide into 10 areas and files evenly into folders');
    }
  }

  get fileCount(): number {
    return this.files;
  }

  /** Adds areas until the account holds `files` files. */
  async growTo(files: number): Promise<void> {
    const http = new HttpClient(this.b.coffer.origin, this.b.plan.seedWidth);
    const api = new CofferApi(http);
    try {
      while (this.files < files) await this.addArea(api);
    } finally {
      http.close();
    }
  }

  private async addArea(api: CofferApi): Promise<void> {
    const { userToken: token, plan } = this.b;
    const a = this.areas.length;
    const started = nowMs();
    const areaId = await api.createFolder(token, `area-${a}`, null);
    const sectionCount = Math.min(9, this.foldersPerArea - 1);
    const sections: string[] = [];
    await inParallel(sectionCount, plan.seedWidth, async (s) => {
      sections[s] = await api.createFolder(token, `${WORDS[s % WORDS.length]}-section-${a}-${s}`, areaId);
    });
    const shelfCount = this.foldersPerArea - 1 - sectionCount;
    const shelves: string[] = [];
    await inParallel(shelfCount, plan.seedWidth, async (k) => {
      const parent = sections[k % sectionCount]!;
      shelves[k] = await api.createFolder(token, `${WORDS[(k + 7) % WORDS.length]}-shelf-${a}-${k}`, parent);
    });
    const folderIds = [areaId, ...sections, ...shelves];

    const first = this.files;
    const count = folderIds.length * this.filesPerFolder;
    await inParallel(count, plan.seedWidth, async (j) => {
      const i = first + j;
      const name = `${WORDS[i % WORDS.length]}-${String(i).padStart(6, '0')}.txt`;
      await api.uploadSmall(token, folderIds[j % folderIds.length]!, name, Buffer.from(`file ${i}\n`));
    });
    this.files += count;
    this.areas.push({ id: areaId, folderIds, entries: folderIds.length - 1 + count });
    const seconds = (nowMs() - started) / 1000;
    const rate = Math.round(count / seconds);
    log(`  area ${a}: ${folderIds.length} folders, ${count} files in ${seconds.toFixed(1)} s (${rate} files/s)`);
    this.rates.push(rate);
  }
}
