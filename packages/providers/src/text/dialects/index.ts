/**
 * Every text tool-call dialect, in detection order: dialects with specific markers first, marker-less ones (plain
 * JSON, pythonic, ReAct) last. Each lives in its own file and exports one `TextDialect`.
 */
import type { TextDialect } from '../dialect';

export const DIALECTS: readonly TextDialect[] = [];
