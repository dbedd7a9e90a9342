/**
 * The CPU time (user + system, in milliseconds) this process spent running `work`. Bounds on work that must not blow
 * up (a nesting limit, a linear-time scan) are checked on CPU time, not on the wall clock, which a loaded machine
 * stretches several times over (issue 31: 1.8 s of wall time for a 1 s bound while other suites ran).
 */
export function cpuMillisecondsOf(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1_000;
}
