/** Code-unit order on the lower-cased name, then id: deterministic, and what a stored lower-case key sorts to. */
export function compareNamed(a: { lower: string; id: string }, b: { lower: string; id: string }): number {
  if (a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
  return compareIds(a.id, b.id);
}

export function compareCreated(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const diff = a.createdAt.getTime() - b.createdAt.getTime();
  return diff !== 0 ? diff : compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Keeps the `limit` smallest items offered, in a bounded max-heap. A search may match 100,000 names of which only
 * a page is wanted; this costs one comparison for most of them instead of collecting and sorting every match.
 */
export class Smallest<T> {
  private readonly heap: T[] = [];
  private readonly limit: number;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    limit: number,
  ) {
    this.limit = limit > 0 ? limit : 0;
  }

  offer(item: T): void {
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(item);
      this.siftUp();
    } else if (heap.length > 0 && this.compare(item, heap[0]!) < 0) {
      heap[0] = item;
      this.siftDown();
    }
  }

  /** The kept items in ascending order. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(): void {
    const heap = this.heap;
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.compare(heap[child]!, heap[parent]!) <= 0) return;
      swap(heap, child, parent);
      child = parent;
    }
  }

  private siftDown(): void {
    const heap = this.heap;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let largest = parent;
      if (left < heap.length && this.compare(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && this.compare(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === parent) return;
      swap(heap, parent, largest);
      parent = largest;
    }
  }
}

function swap<T>(heap: T[], i: number, j: number): void {
  const item = heap[i]!;
  heap[i] = heap[j]!;
  heap[j] = item;
}
