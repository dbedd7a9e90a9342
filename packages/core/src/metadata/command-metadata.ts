import { COMMAND_METADATA } from './constants';
import { reflectMetadata } from './reflect-api';
import type { CommandMetadata } from './types';

/** Stores the raw `@Command(...)` record on a class. */
export function defineCommandMetadata(target: Function, metadata: CommandMetadata): void {
  reflectMetadata.defineMetadata(COMMAND_METADATA, metadata, target);
}

/** The `@Command(...)` record of a class or of its nearest decorated ancestor; `undefined` when there is none. */
export function getCommandMetadata(target: Function): CommandMetadata | undefined {
  return reflectMetadata.getMetadata(COMMAND_METADATA, target) as CommandMetadata | undefined;
}
