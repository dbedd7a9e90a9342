import { compileTool, type CompiledTool, type CompileSettings } from '../compile/tool-plan';
import type { RegisteredTool } from '../types/handler';
import type { ToolRegistry } from './tool-registry';

/**
 * Compiles a registry's tools for one executor's settings (`compile/tool-plan.ts`) and keeps each compiled tool while
 * its entry is registered (a replaced entry is a new key; the old one is collected). A tool is compiled on its first
 * call, or ahead of it: {@link compileAll} for the tools registered now, {@link compileOnRegistration} for those
 * registered later, so that no call pays for compiling.
 */
export class ToolCompiler {
  private readonly compiled = new WeakMap<RegisteredTool, CompiledTool>();
  /** The entry compiled last and its compiled form (a tool loop calls the same tools again and again). */
  private lastEntry: RegisteredTool | undefined = undefined;
  private lastCompiled: CompiledTool | undefined = undefined;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly settings: CompileSettings,
  ) {}

  /** The compiled form of a registry entry (compiled now if it is not yet). */
  compiledFor(entry: RegisteredTool): CompiledTool {
    // The tool compiled last first: one comparison, no WeakMap lookup.
    if (entry === this.lastEntry) return this.lastCompiled!;
    let compiled = this.compiled.get(entry);
    if (compiled === undefined) {
      compiled = compileTool(entry, this.settings, this.registry);
      this.compiled.set(entry, compiled);
    }
    this.lastEntry = entry;
    this.lastCompiled = compiled;
    return compiled;
  }

  /**
   * Compiles every registered tool not compiled yet, then runs `warmUp` with this compiler's settings (the executor's
   * warm-up of the shared call path, `execution/warm-up.ts`); returns how many tools are registered.
   */
  compileAll(warmUp?: (settings: CompileSettings) => void): number {
    const entries = this.registry.entries();
    for (const entry of entries) this.compiledFor(entry);
    warmUp?.(this.settings);
    return entries.length;
  }

  /**
   * Compiles each tool as it is registered (or replaced) from now on, off any call's path. The registry holds the
   * compiler only weakly: an executor that is no longer used is collected, and its listener removed on the next change.
   */
  compileOnRegistration(): void {
    const compiler = new WeakRef<ToolCompiler>(this);
    const registry = this.registry;
    const stop = registry.onChange((change) => {
      const live = compiler.deref();
      if (live === undefined) {
        stop();
        return;
      }
      if (change.type === 'unregistered') return;
      const entry = registry.getEntry(change.name);
      if (entry !== undefined) live.compiledFor(entry);
    });
  }
}
