/**
 * `run`'s stdout with its backpressure: `write` passes text on and notes when the stream said it
 * is full (`process.stdout.write` returned false); `full` is then a promise that resolves on
 * 'drain' — run-agent.ts stops reading the agents until then. Nothing is buffered here.
 */
import type { CliIo } from '../command';

export class OutputFlow {
  private waiting: Promise<void> | undefined;

  constructor(private readonly io: Pick<CliIo, 'stdout' | 'drained'>) {}

  write(text: string): boolean {
    const ok = this.io.stdout(text) !== false;
    if (!ok && !this.waiting && this.io.drained) {
      this.waiting = this.io.drained().then(() => {
        this.waiting = undefined;
      });
    }
    return ok;
  }

  /** Undefined while the output takes more; else resolves when it drained. */
  get full(): Promise<void> | undefined {
    return this.waiting;
  }
}
