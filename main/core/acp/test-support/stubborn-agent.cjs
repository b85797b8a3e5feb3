// An agent that ignores stdin EOF and SIGTERM: only SIGKILL takes it down.
process.on('SIGTERM', () => {});
process.stdin.on('data', () => {});
process.stdin.on('end', () => {});
process.stdout.write('ready\n');
setInterval(() => {}, 1000);
