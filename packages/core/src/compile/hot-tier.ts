/**
 * The hot tier (docs/decisions/0031-hot-tier.md): which tools' canonical checks get code of their own. Every check counts its calls in
 * one number; the calls of one executor (its {@link HotTier}) are cut into windows of {@link HotTierSettings.window} calls, and a tool
 * that takes at least {@link HotTierSettings.share} of a window is specialized, never on a call's stack: when the event
 * loop next turns (`setImmediate`), or, if a whole window of calls went by without it turning (calls awaited in a loop
 * of microtasks, as a benchmark or a batch runs them), as soon as the call that crossed the threshold again returned
 * (`queueMicrotask`). At most {@link HotTierSettings.maxTools} specialized checks of one tier are alive at once; none is evicted. In
 * a round-robin over more tools than 1 / share, no tool reaches the share and nothing is generated.
 */

/** What a check gives the tier: its count (one number), and its specialization. */
export interface HotCandidate {
  /** Its tier's call count at this check's last call, plus its calls in the current window. */
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
  /** At most this many specialized checks alive in one tier (one executor). */
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

/** The settings tiers made from now on start with (tests and benchmarks change them: {@link configureHotTier}). */
let defaults: HotTierSettings = DEFAULT_HOT_TIER;

/** The settings a tier made now starts with. */
export function hotTierSettings(): HotTierSettings {
  return defaults;
}

/**
 * Changes the settings of the tiers made from now on (tests and benchmarks; an executor makes its tier when it is
 * built); returns the previous ones. Tiers made before keep theirs.
 */
export function configureHotTier(changes: Partial<HotTierSettings>): HotTierSettings {
  const previous = defaults;
  defaults = Object.freeze({ ...defaults, ...changes });
  return previous;
}

/**
 * One executor's hot tier: the window's counts, the specialized checks the cap holds to and the checks waiting for the
 * event loop. Owned by the executor (its compiled tools' checks share it), so two executors never count each other's
 * calls or take each other's places.
 */
export class HotTier {
  readonly settings: HotTierSettings;
  /** Calls of a tool in one window that make it hot. */
  private readonly threshold: number;
  /** The tier's call count at the start of the current window, and calls since. */
  private windowStart = 0;
  private windowCalls = 0;
  /** The specialized checks (held weakly: a check that is collected frees its place). */
  private specialized: WeakRef<HotCandidate>[] = [];
  /** The checks whose specialization waits for the event loop. */
  private readonly waiting = new Set<HotCandidate>();

  constructor(settings: HotTierSettings = defaults) {
    this.settings = settings;
    this.threshold = Math.max(1, Math.ceil(settings.window * settings.share));
  }

  /** Whether a check just built is specialized at once (`mode: 'always'`). */
  get specializesWhenBuilt(): boolean {
    return this.settings.mode === 'always';
  }

  /** Counts one call of a check that is not specialized; schedules its specialization when it became hot. */
  countCall(candidate: HotCandidate): void {
    const start = this.windowStart;
    const mark = (candidate.mark < start ? start : candidate.mark) + 1;
    candidate.mark = mark;
    if (mark - start === this.threshold && this.settings.mode === 'auto') this.schedule(candidate);
    if (++this.windowCalls >= this.settings.window) {
      this.windowStart = start + this.windowCalls;
      this.windowCalls = 0;
    }
  }

  private schedule(candidate: HotCandidate): void {
    if (this.waiting.has(candidate)) {
      queueMicrotask(() => this.specializeIfRoom(candidate));
      return;
    }
    this.waiting.add(candidate);
    setImmediate(() => this.specializeIfRoom(candidate));
  }

  private specializeIfRoom(candidate: HotCandidate): void {
    this.waiting.delete(candidate);
    this.specialized = this.specialized.filter((held) => held.deref() !== undefined);
    if (
      this.specialized.length >= this.settings.maxTools ||
      this.specialized.some((held) => held.deref() === candidate)
    )
      return;
    if (candidate.specialize()) this.specialized.push(new WeakRef(candidate));
  }
}
