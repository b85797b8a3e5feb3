/**
 * `--approve ask` on a terminal: each permission request that reaches a person is asked at the
 * prompt, one at a time, with the agent's options numbered. Answered through the same queue the
 * UI uses, so the first answer wins.
 */
import { createInterface } from 'node:readline';
import type { PermissionQueue } from '../../core/sessions/permission-queue';

export function askOnTerminal(queue: PermissionQueue, labelOf: (sessionId: string) => string, out: (t: string) => void): { dispose(): void } {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  let chain = Promise.resolve();
  const sub = queue.onAsked((pending) => {
    chain = chain.then(
      () =>
        new Promise<void>((done) => {
          const { params } = pending;
          const title = params.toolCall.title ?? params.toolCall.toolCallId;
          out(`\n[${labelOf(pending.sessionId)}] permission requested: ${title}\n`);
          params.options.forEach((o, n) => out(`  ${n + 1}. ${o.name} (${o.kind})\n`));
          const ask = () =>
            rl.question('Choose an option number (or c to cancel): ', (answer) => {
              const text = answer.trim().toLowerCase();
              if (text === 'c') {
                queue.resolve(pending.key, { outcome: 'cancelled' }, 'user');
                return done();
              }
              const option = params.options[Number(text) - 1];
              if (!option) return ask();
              queue.resolve(pending.key, { outcome: 'selected', optionId: option.optionId }, 'user');
              done();
            });
          if (!queue.get(pending.key)) return done(); // answered meanwhile (cancel)
          ask();
        }),
    );
  });
  return {
    dispose: () => {
      sub.dispose();
      rl.close();
    },
  };
}
