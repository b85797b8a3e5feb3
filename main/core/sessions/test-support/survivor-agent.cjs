// Runs the fixture agent (argv[2] and on) in this process, ignoring write errors on stdout and
// stderr: like many real agents, it outlives a workbench that died (its pipes closed) instead of
// crashing on EPIPE, so only the process registry can find and stop it.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
process.argv.splice(1, 1);
require(process.argv[1]);
