/**
 * Which worker folds the next file: the files wait in one queue, in order, and a worker is given
 * one only when it has fewer than `depth` in hand. So a worker that is busy with a big file, or
 * writing a segment, is not handed the files the others could fold meanwhile (fold-pool.ts used to
 * deal each file to a worker when it was asked for: the file the main thread needed next could sit
 * behind a long one while the other worker ran out of work).
 */
export class FoldDispatch<T> {
  private readonly queue: T[] = [];
  private head = 0;
  private readonly inHand: number[];

  constructor(
    workers: number,
    private readonly depth: number,
    private readonly send: (worker: number, item: T) => void,
  ) {
    this.inHand = new Array<number>(workers).fill(0);
  }

  /** Queues an item; it is sent at once when a worker has room. */
  push(item: T): void {
    this.queue.push(item);
    this.pump();
  }

  /** A worker answered for one of its items: it has room for the next. */
  done(worker: number): void {
    this.inHand[worker]!--;
    this.pump();
  }

  /** Items queued and not yet sent. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  private pump(): void {
    while (this.head < this.queue.length) {
      let best = -1;
      for (let w = 0; w < this.inHand.length; w++) if (this.inHand[w]! < this.depth && (best < 0 || this.inHand[w]! < this.inHand[best]!)) best = w;
      if (best < 0) return;
      const item = this.queue[this.head]!;
      this.queue[this.head++] = undefined as T;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.inHand[best]!++;
      this.send(best, item);
    }
  }
}
