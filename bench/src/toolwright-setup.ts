import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  PersonaToolExecutor,
  silentLogger,
  type PersonaToolExecutorOptions,
  type ToolRegistry,
} from '@toolwright/core';

/**
 * The executor option issue 4 adds (`validation: 'compiled' | 'reference'`). This file compiles whether core
 * declares it yet or not: the options go through a widened type.
 */
export type ValidationMode = 'compiled' | 'reference';
type OptionsWithValidation = PersonaToolExecutorOptions & { validation?: ValidationMode };

export interface ModeSupport {
  /** Whether the executor takes `validation: 'reference'`. */
  readonly supported: boolean;
  /** How that was decided, for the printed output. */
  readonly evidence: string;
}

/** Whether `PersonaToolExecutorOptions` declares `validation` in core's built declarations. */
function declaredInTypes(): boolean {
  const root = dirname(require.resolve('@toolwright/core'));
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  if (existsSync(root)) walk(root);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf('interface PersonaToolExecutorOptions');
    if (start < 0) continue;
    const end = text.indexOf('\n}', start);
    if (/\bvalidation\?\s*:/.test(text.slice(start, end < 0 ? undefined : end))) return true;
  }
  return false;
}

/**
 * Detects the option: the constructor must accept `{ validation: 'reference' }`, and either core's declarations
 * declare it or the executor keeps the value (a constructor that ignores an unknown option proves nothing).
 */
export function detectValidationOption(registry: ToolRegistry): ModeSupport {
  let executor: PersonaToolExecutor;
  try {
    executor = new PersonaToolExecutor(registry, { logger: silentLogger, validation: 'reference' });
  } catch (error) {
    return {
      supported: false,
      evidence: `the constructor refused { validation: 'reference' } (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const declared = declaredInTypes();
  const kept = Object.values(executor as unknown as Record<string, unknown>).includes('reference');
  if (declared || kept) {
    return {
      supported: true,
      evidence: `{ validation: 'reference' } accepted (${[declared ? 'declared in PersonaToolExecutorOptions' : '', kept ? 'kept by the executor' : ''].filter(Boolean).join(', ')})`,
    };
  }
  return {
    supported: false,
    evidence:
      'PersonaToolExecutorOptions has no `validation` option in this checkout (the compiled path is not in core yet)',
  };
}

/** The modes to measure: both when the option exists, else the default only. */
export function modesToMeasure(support: ModeSupport): readonly ('compiled' | 'reference' | 'default')[] {
  return support.supported ? ['compiled', 'reference'] : ['default'];
}

export function createExecutor(
  registry: ToolRegistry,
  mode: 'compiled' | 'reference' | 'default',
): PersonaToolExecutor {
  const options: OptionsWithValidation = { logger: silentLogger };
  if (mode !== 'default') options.validation = mode;
  return new PersonaToolExecutor(registry, options);
}

export function modeLabel(mode: 'compiled' | 'reference' | 'default'): string {
  return mode === 'default' ? 'default validation' : `${mode} validation`;
}
