/**
 * A small pool of expensive things (Monaco diff editors: two editors and two models each): at most
 * `max` leases are live; asking for one more takes it from the least useful holder, which is told
 * to let go (`evict`). Hidden holders go first, then the least recently used; pinned holders (the
 * full-size diff dialog) are never taken from. Pure bookkeeping, no DOM.
 */
export interface LeaseHolder {
  /** Called when the pool takes the lease back: dispose the editor and show something cheaper. */
  evict(): void;
  /** Never evicted (the dialog the user is looking at). */
  pinned?: boolean;
}

export interface Lease {
  readonly id: number;
  /** Still held (false after release or eviction). */
  readonly live: boolean;
  /** The user looked at or used it: it is evicted last. */
  touch(): void;
  /** On screen or not (hidden leases are evicted first). */
  setVisible(visible: boolean): void;
  /** Give the lease back (on unmount). Safe to call twice. */
  release(): void;
}

interface Slot {
  id: number;
  holder: LeaseHolder;
  lastUsed: number;
  visible: boolean;
  live: boolean;
}

export class LeasePool {
  private readonly slots = new Map<number, Slot>();
  private clock = 0;
  private nextId = 1;

  constructor(readonly max: number) {
    if (max < 1) throw new Error('A lease pool needs room for at least one lease');
  }

  /** Live leases now. */
  get size(): number {
    return this.slots.size;
  }

  /** A lease, evicting the least useful holder when the pool is full; null when every lease is pinned. */
  acquire(holder: LeaseHolder): Lease | null {
    if (this.slots.size >= this.max) {
      const victim = this.victim();
      if (!victim) return null;
      this.drop(victim);
      victim.holder.evict();
    }
    const slot: Slot = { id: this.nextId++, holder, lastUsed: ++this.clock, visible: true, live: true };
    this.slots.set(slot.id, slot);
    const pool = this;
    return {
      id: slot.id,
      get live() {
        return slot.live;
      },
      touch() {
        if (slot.live) slot.lastUsed = ++pool.clock;
      },
      setVisible(visible: boolean) {
        slot.visible = visible;
        if (visible && slot.live) slot.lastUsed = ++pool.clock;
      },
      release() {
        pool.drop(slot);
      },
    };
  }

  private victim(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots.values()) {
      if (slot.holder.pinned) continue;
      if (!best || rank(slot) < rank(best)) best = slot;
    }
    return best;
  }

  private drop(slot: Slot): void {
    slot.live = false;
    this.slots.delete(slot.id);
  }
}

/** Lower is evicted first: hidden before visible, then oldest use. */
function rank(slot: Slot): number {
  return (slot.visible ? 1e12 : 0) + slot.lastUsed;
}
