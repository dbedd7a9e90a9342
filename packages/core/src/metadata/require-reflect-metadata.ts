// The reflect polyfill (`reflect-metadata`, a peer dependency) is loaded here when the application has not loaded it
// yet, as @nestjs/common does: code that uses no decorator (a JSON Schema tool, `registry.search`, text parsing) needs
// no import of its own. When the package is not installed, importing core fails at once with the fix (tsyringe's
// habit), instead of a confusing "Reflect.getMetadata is not a function" later.
const hasPolyfill = (): boolean =>
  typeof Reflect !== 'undefined' && typeof (Reflect as unknown as { getMetadata?: unknown }).getMetadata === 'function';

if (!hasPolyfill()) {
  try {
    require('reflect-metadata');
  } catch {
    // not installed: the error below says what to do
  }
  if (!hasPolyfill())
    throw new Error(
      "@toolwright/core requires a reflect polyfill. Install its peer dependency (`npm install reflect-metadata`) and add `import 'reflect-metadata';` once at your entry point, before importing @toolwright/core.",
    );
}
export {};
