import { DefinitionError } from '../errors/definition-error';

/**
 * The definition errors a decorator raises while decorating: only misplacement, which needs no resolution (a
 * symbol or static property, a decorator applied as a TC39 decorator). Everything else is checked when the
 * definition is built (schema/definition-messages.ts), where class order no longer matters.
 */
export const decoratorMessages = {
  standardDecorator: (decorator: string, property: string) =>
    new DefinitionError(
      `@${decorator} on property "${property}" was applied as a standard (TC39) decorator: toolwright's decorators need TypeScript's experimental decorators, which record the property types.`,
      {
        property,
        fix: 'set "experimentalDecorators": true and "emitDecoratorMetadata": true in the tsconfig that compiles this class, and load "reflect-metadata" once at startup.',
      },
    ),

  symbolProperty: (decorator: string, target: string, property: string) =>
    new DefinitionError(`@${decorator} is on the symbol property ${property}; parameter names are strings.`, {
      target,
      property,
      fix: 'decorate a string-named property.',
    }),

  staticProperty: (decorator: string, target: string, property: string) =>
    new DefinitionError(`@${decorator} is on a static property; parameters are instance properties of the DTO.`, {
      target,
      property,
      fix: 'remove `static`.',
    }),
};
