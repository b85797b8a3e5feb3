// Like an npm wrapper around a native binary: it starts a child (same process group) that ignores
// SIGTERM, prints the child's pid, and — with `exit-on-eof` — exits on stdin EOF leaving the child
// behind; with `exit-now` it exits at once; otherwise it ignores EOF (SIGTERM kills it normally).
// `escape-now`: the child leaves the group (its own session) but keeps stdout open; exit at once.
const { spawn } = require('node:child_process');
// Ignores SIGTERM, and says so on fd 3 only once the handler is in place.
const STUBBORN_CHILD = "process.on('SIGTERM', () => {}); require('node:fs').writeSync(3, 'ready'); setInterval(() => {}, 1000)";
const mode = process.argv[2] ?? 'stay';
const child = spawn(process.execPath, ['-e', STUBBORN_CHILD], {
  stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  detached: mode === 'escape-now',
});
child.unref();
child.stdio[3].once('data', () => {
  child.stdio[3].destroy();
  process.stdout.write(JSON.stringify({ grandchild: child.pid }) + '\n', () => {
    if (mode === 'exit-now' || mode === 'escape-now') process.exit(0);
  });
});
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  if (mode === 'exit-on-eof') process.exit(0);
});
if (!mode.endsWith('-now')) setInterval(() => {}, 1000);
