/**
 * The hot tier (docs/decisions/0031-hot-tier.md): which tools' canonical checks get code of their own. Every check counts its calls in
 * one number; the calls of the whole process are cut into windows of {@link HotTierSettings.window} calls, and a tool
 * that takes at least {@link HotTierSettings.share} of a window is specialized, never on a call's stack: when the event
 * loop next turns (`setImmediate`), or, if a whole window of calls went by without it turning (calls awaited in a loop
 * of microtasks, as a benchmark or a batch runs them), as soon as the call that crossed the threshold again returned
 * (`queueMicrotask`). At most {@link HotTierSettings.maxTools} specialized checks are alive at once; none is evicted. In
 * a round-robin over more tools than 1 / share, no tool reaches the share and nothing is generated.
 */

/** What a check gives the tier: its count (one number), and its specialization. */
export interface HotCandidate {
  /** The process's call count at this check's last call, plus its calls in the current window. */
  mark: number;
  /** Replaces the check's shared walk with its own code; `false` when it does not (its source beyond the budget). */
  specialize(): boolean;
}

export interface HotTierSettings {
  /** `auto` (the default), `always` (every check is specialized when it is built: the tests), `never`. */
  readonly mode: 'auto' | 'always' | 'never';
  /** Calls per window. */
  readonly window: number;
  /** The fraction of a window a tool must take to be specialized. */
  readonly share: number;
  /** At most this many specialized checks alive in the process. */
  readonly maxTools: number;
  /** Characters of generated source a tool may have; a larger check stays on the shared walk. */
  readonly maxSourceLength: number;
}

export const DEFAULT_HOT_TIER: HotTierSettings = Object.freeze({
  mode: 'auto',
  window: 1024,
  share: 1 / 8,
  maxTools: 8,
  maxSourceLength: 16_384,
});

let settings: HotTierSettings = DEFAULT_HOT_TIER;
/** Calls of a tool in one window that make it hot. */
let threshold = Math.ceil(DEFAULT_HOT_TIER.window * DEFAULT_HOT_TIER.share);
/** The process's call count at the start of the current window, and calls since. */
let windowStart = 0;
let windowCalls = 0;
/** The specialized checks (held weakly: a check that is collected frees its place). */
let specialized: WeakRef<HotCandidate>[] = [];
/** The checks whose specialization waits for the event loop. */
const waiting = new Set<HotCandidate>();

/** The tier's settings now. */
export function hotTierSettings(): HotTierSettings {
  return settings;
}

/**
 * Changes the tier's settings (tests and benchmarks); returns the previous ones. Starts afresh: the counts, and the
 * tally of specialized checks the cap holds to (checks specialized before keep their code).
 */
export function configureHotTier(changes: Partial<HotTierSettings>): HotTierSettings {
  const previous = settings;
  settings = Object.freeze({ ...settings, ...changes });
  threshold = Math.max(1, Math.ceil(settings.window * settings.share));
  windowStart = 0;
  windowCalls = 0;
  specialized = [];
  waiting.clear();
  return previous;
}

/** Counts one call of a check that is not specialized; schedules its specialization when it became hot. */
export function countCall(candidate: HotCandidate): void {
  const start = windowStart;
  const mark = (candidate.mark < start ? start : candidate.mark) + 1;
  candidate.mark = mark;
  if (mark - start === threshold && settings.mode === 'auto') schedule(candidate);
  if (++windowCalls >= settings.window) {
    windowStart = start + windowCalls;
    windowCalls = 0;
  }
}

/** Whether a check just built is specialized at once (`mode: 'always'`). */
export function specializedWhenBuilt(): boolean {
  return settings.mode === 'always';
}

function schedule(candidate: HotCandidate): void {
  if (waiting.has(candidate)) {
    queueMicrotask(() => specializeIfRoom(candidate));
    return;
  }
  waiting.add(candidate);
  setImmediate(specializeIfRoom, candidate);
}

function specializeIfRoom(candidate: HotCandidate): void {
  waiting.delete(candidate);
  specialized = specialized.filter((held) => held.deref() !== undefined);
  if (specialized.length >= settings.maxTools || specialized.some((held) => held.deref() === candidate)) return;
  if (candidate.specialize()) specialized.push(new WeakRef(candidate));
}
