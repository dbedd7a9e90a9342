/**
 * What a model writes in each text tool-call dialect (per its chat template), for the BFCL read-back test: one
 * renderer per dialect, registered here under the dialect's name.
 */

/** One call to render. */
export interface RenderCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface RenderOptions {
  /** prose the model writes before the calls (where the dialect allows prose) */
  readonly prose?: string;
}

export interface DialectRenderer {
  /** the `TextDialect.name` this renders */
  readonly dialect: string;
  render(calls: readonly RenderCall[], options: RenderOptions): string;
}

export const RENDERERS: readonly DialectRenderer[] = [];
