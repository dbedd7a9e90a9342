import { DefinitionError } from '../errors/definition-error';
import { getCommandMetadata } from '../metadata/command-metadata';
import { getConstructorParamTypes, getOwnInjectionTokens } from '../metadata/design-metadata';
import type { Constructor } from '../types/schema';

/**
 * What a container needs to build a command class, read once at registration: the constructor's parameter types
 * (`design:paramtypes`), with tsyringe's `@inject(token)` entries in their places (tsyringe's own `getParamInfo`).
 */
export function constructorParameters(commandClass: Constructor): readonly unknown[] {
  const parameters = [...(getConstructorParamTypes(commandClass) ?? [])];
  for (const [index, token] of Object.entries(getOwnInjectionTokens(commandClass))) parameters[Number(index)] = token;
  return parameters;
}

/** Checks a command class can be constructed by a container; options of `checkCommandClass`. */
export interface CommandClassCheckOptions {
  /**
   * Constructor parameter indexes that carry an explicit token in another container's metadata (Nest's
   * `@Inject(token)`), so they need no `design:paramtypes`. Default: tsyringe's `@inject(token)` only.
   */
  readonly explicitlyInjected?: (commandClass: Constructor) => ReadonlySet<number>;
}

/**
 * Registration-time checks of a `@Command` class as a thing to construct, so that what would fail at call time fails
 * at startup with the class named and the fix:
 * - decorated under TC39 (standard) decorators, where no parameter or design metadata exists;
 * - constructor parameters but no `design:paramtypes` (tsx, esbuild, vitest without a metadata plugin, swc without
 *   `decoratorMetadata`), unless each parameter names its token explicitly.
 */
export function checkCommandClass(commandClass: Constructor, options: CommandClassCheckOptions = {}): void {
  const name = commandClass.name || '(anonymous class)';
  const metadata = getCommandMetadata(commandClass);
  if (metadata === undefined) return; // not a command: the definition builder says so
  if (metadata.decoratorSyntax === 'tc39') throw constructionMessages.tc39(name);
  const declared = commandClass.length;
  if (declared === 0 || getConstructorParamTypes(commandClass) !== undefined) return;
  const explicit = new Set<number>(Object.keys(getOwnInjectionTokens(commandClass)).map(Number));
  for (const index of options.explicitlyInjected?.(commandClass) ?? []) explicit.add(index);
  const missing = Array.from({ length: declared }, (_, index) => index).filter((index) => !explicit.has(index));
  if (missing.length > 0) throw constructionMessages.noParamTypes(name, declared, missing);
}

const METADATA_FIX =
  'compile with TypeScript (tsc, ts-jest, ts-node) or a transform that emits decorator metadata, with "experimentalDecorators": true and "emitDecoratorMetadata": true (swc: jsc.transform.decoratorMetadata; vitest/esbuild: a metadata plugin such as unplugin-swc)';

export const constructionMessages = {
  tc39: (name: string) =>
    new DefinitionError(
      "was decorated with standard (TC39) decorators: @Command and the parameter decorators need TypeScript's experimental decorators, which record the parameter types and the constructor's dependencies.",
      {
        target: `class ${name}`,
        fix: `set "experimentalDecorators": true and "emitDecoratorMetadata": true in the tsconfig that compiles ${name}, and load "reflect-metadata" once at startup.`,
      },
    ),

  noParamTypes: (name: string, declared: number, missing: readonly number[]) =>
    new DefinitionError(
      `has ${declared} constructor parameter${declared === 1 ? '' : 's'} but no design:paramtypes metadata, so no container can tell what to inject (parameter${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no explicit token). The code was compiled without emitDecoratorMetadata.`,
      {
        target: `class ${name}`,
        fix: `${METADATA_FIX}; or name every dependency's token explicitly (@inject(Token) for tsyringe, @Inject(Token) for Nest).`,
      },
    ),
};
