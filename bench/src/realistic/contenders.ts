/**
 * What the realistic case measures and reports, without loading anything it measures (the parent process and the
 * renderer read these; the child process runs `round-robin.ts`).
 */

export const REALISTIC_SIZES = [1, 20, 50, 200] as const;

export type Kind = 'class' | 'json';

export interface RealisticContender {
  readonly id: string;
  readonly label: string;
  readonly kind: Kind;
}

/** The contenders, in the order they are reported. `<kind>:tw` is toolwright; the others are the baselines. */
export const REALISTIC_CONTENDERS: readonly RealisticContender[] = [
  { id: 'class:tw', kind: 'class', label: 'toolwright, decorated class commands' },
  { id: 'class:hand', kind: 'class', label: 'hand-written check per shape (e-mail checked)' },
  { id: 'class:ajv', kind: 'class', label: 'ajv per schema (ajv-formats date-time, email)' },
  { id: 'class:zod', kind: 'class', label: 'zod 4 per shape (z.email())' },
  { id: 'class:cv', kind: 'class', label: 'class-transformer + class-validator per DTO (@IsEmail())' },
  { id: 'json:tw', kind: 'json', label: 'toolwright, JSON-Schema tools' },
  { id: 'json:hand', kind: 'json', label: 'hand-written check per shape (e-mail checked)' },
  { id: 'json:ajv', kind: 'json', label: 'ajv per schema (ajv-formats date-time, email)' },
  { id: 'json:zod', kind: 'json', label: 'zod 4 per shape (z.email())' },
];

/** What one `child.js realistic <tools>` process prints. */
export interface RealisticResult {
  readonly tools: number;
  readonly calls: number;
  readonly warmupCalls: number;
  readonly results: { id: string; medianNs: number; relativeMad: number; samples: number; batch: number }[];
}
