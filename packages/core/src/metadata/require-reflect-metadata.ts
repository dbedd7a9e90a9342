// tsyringe's habit: fail at import with the fix, instead of a confusing "Reflect.getMetadata is not a function" later.
if (
  typeof Reflect === 'undefined' ||
  typeof (Reflect as unknown as { getMetadata?: unknown }).getMetadata !== 'function'
) {
  throw new Error(
    "@toolwright/core requires a reflect polyfill. Add `import 'reflect-metadata';` once at your entry point, before importing @toolwright/core.",
  );
}
export {};
