// Plays a workbench that crashes: registers a detached grandchild in the process registry (the
// bundled module path is argv[2], the data folder argv[3]), prints its pid, then waits to be killed.
const { spawn } = require('node:child_process');
// Ignores SIGTERM, and says so on fd 3 only once the handler is in place.
const STUBBORN_CHILD = "process.on('SIGTERM', () => {}); require('node:fs').writeSync(3, 'ready'); setInterval(() => {}, 1000)";
const { ProcessRegistry } = require(process.argv[2]);
const registry = new ProcessRegistry(process.argv[3]);
const child = spawn(process.execPath, ['-e', STUBBORN_CHILD], {
  detached: true,
  stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
});
child.unref();
child.stdio[3].once('data', () => {
  child.stdio[3].destroy();
  registry.register({ pid: child.pid, pgid: child.pid, command: 'grandchild', kind: 'terminal' });
  void registry.flushed().then(() => process.stdout.write(JSON.stringify({ grandchild: child.pid, file: registry.filePath }) + '\n'));
});
setInterval(() => {}, 1000);
