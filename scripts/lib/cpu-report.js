// Preloaded into each test process by `npm run test:timings`: at exit, the process's own CPU time as a TAP
// comment, so a file's wall time can be set beside what it computed (the rest is waiting).
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`# cpu=${((user + system) / 1000).toFixed(0)}ms\n`);
});
