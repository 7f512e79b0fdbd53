/** A file to upload and the folders it sits in, relative to where it was dropped (empty: right here). */
export interface Picked {
  file: File;
  dirs: string[];
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries hands out at most ~100 entries a call: call until it answers an empty batch.
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, dirs: string[], out: Picked[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, dirs });
  } else if (entry.isDirectory) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const child of children) await walk(child, [...dirs, entry.name], out);
  }
}

/** Everything dropped, whole folders included, with the structure kept. */
export async function fromDrop(data: DataTransfer): Promise<Picked[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return [...data.files].map((file) => ({ file, dirs: [] }));
  const out: Picked[] = [];
  for (const entry of entries) await walk(entry, [], out);
  return out;
}

/** From a file input; a folder input (webkitdirectory) names each file's path inside the chosen folder. */
export function fromInput(files: FileList): Picked[] {
  return [...files].map((file) => ({ file, dirs: file.webkitRelativePath.split('/').slice(0, -1) }));
}
