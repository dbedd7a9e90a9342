import { createPersonaRegistry } from './index';

/**
 * The app's registry as a module that only builds it (loading it starts nothing): what the toolwright CLI loads for
 * `--app examples/persona-app` (the "toolwright.app" field of package.json points here).
 */
export const registry = createPersonaRegistry();
