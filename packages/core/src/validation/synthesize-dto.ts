import { definitionMessages } from '../schema/definition-messages';
import { objectNodes } from '../schema/object-nodes';
import type { ClassThunk } from '../types/param-options';
import { allowEmptyDto, applyPropertyDecorators, validationDecorators } from './validation-plan';
import type { Constructor, ObjectSchema } from '../types/schema';
import { releaseClassMetadata } from '../metadata/release-class-metadata';
import { isReservedPropertyName } from '../schema/resolve-param';

const synthesized = new WeakMap<ObjectSchema, Constructor>();
/** How many registered tools use each object schema node (see `retainSchemaDtos`). */
const holders = new Map<ObjectSchema, number>();

/**
 * The class a nested object is validated as: its synthesized DTO when the object is closed (`additionalProperties:
 * false`) and has properties; otherwise `undefined`, and the object is checked structurally (free-form maps, open
 * objects, `{}` exactly).
 */
function nestedClass(schema: ObjectSchema): ClassThunk | undefined {
  if (schema.dto !== undefined) {
    const dto = schema.dto;
    return () => dto;
  }
  if (schema.additionalProperties !== false || schema.properties.length === 0) return undefined;
  const dto = dtoForSchema(schema);
  return () => dto;
}

/**
 * The class-validator DTO of an object schema: `schema.dto` when the schema came from a decorated class; otherwise
 * a class synthesized once per schema object, named after `schema.name`, whose properties carry the same
 * class-validator / class-transformer decorators `@ToolParam` would apply. JSON-Schema and compact tools thereby
 * validate through the same `plainToInstance` + `validate` path as decorated commands.
 */
export function dtoForSchema(schema: ObjectSchema): Constructor {
  if (schema.dto !== undefined) return schema.dto;
  const cached = synthesized.get(schema);
  if (cached !== undefined) return cached;
  const className = schema.name ?? 'Parameters';
  for (const property of schema.properties) {
    if (isReservedPropertyName(property.name)) throw definitionMessages.reservedPropertyName(className, property.name);
  }
  const dto = { [className]: class {} }[className] as Constructor;
  for (const property of schema.properties) {
    applyPropertyDecorators(
      dto.prototype as object,
      property.name,
      validationDecorators({ schema: property.schema, required: property.required, inherits: false, nestedClass }),
    );
  }
  if (schema.properties.length === 0) allowEmptyDto(dto);
  synthesized.set(schema, dto);
  return dto;
}

/**
 * Checks, without building anything, that `dtoForSchema(schema)` would succeed: the same reserved-name check and the
 * same decorator derivation (which refuses, for instance, a pattern it cannot compile), with nothing applied, so no
 * class is made and nothing lands in class-validator's or class-transformer's storage. The registry runs this at
 * registration (a schema the reference path cannot enforce still fails there) and leaves the DTO itself to the first
 * call that needs it: only the reference path does, so a JSON-Schema tool on the compiled path never pays its memory.
 */
export function checkDtoSynthesis(schema: ObjectSchema): void {
  if (schema.dto !== undefined || synthesized.has(schema)) return;
  checkNode(schema, new Set());
}

function checkNode(schema: ObjectSchema, seen: Set<ObjectSchema>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const className = schema.name ?? 'Parameters';
  for (const property of schema.properties) {
    if (isReservedPropertyName(property.name)) throw definitionMessages.reservedPropertyName(className, property.name);
  }
  const nestedCheck = (nested: ObjectSchema): ClassThunk | undefined => {
    if (nested.dto !== undefined) {
      const dto = nested.dto;
      return () => dto;
    }
    if (nested.additionalProperties !== false || nested.properties.length === 0) return undefined;
    checkNode(nested, seen);
    return () => Object; // the thunk is never applied: only the derivation is checked
  };
  for (const property of schema.properties) {
    validationDecorators({
      schema: property.schema,
      required: property.required,
      inherits: false,
      nestedClass: nestedCheck,
    });
  }
}

/** What `synthesizeDtosOnRegistration` needs of a registry (structural: the registry module imports this one). */
interface RegistryWithChanges {
  entries(): ReadonlyArray<{ readonly definition: { readonly parameters: ObjectSchema } }>;
  onChange(
    listener: (change: { readonly type: string; readonly definition: { readonly parameters: ObjectSchema } }) => void,
  ): () => void;
}

const synthesizingRegistries = new WeakSet<object>();

/**
 * A reference-path executor uses this registry: synthesize the DTO of every tool it holds now and of every tool
 * registered from now on, at registration (as the reference path always did), instead of on a call. Once per
 * registry; the listener holds nothing but the registry's own definitions.
 */
export function synthesizeDtosOnRegistration(registry: RegistryWithChanges): void {
  if (synthesizingRegistries.has(registry)) return;
  synthesizingRegistries.add(registry);
  for (const entry of registry.entries()) dtoForSchema(entry.definition.parameters);
  registry.onChange((change) => {
    if (change.type !== 'unregistered') dtoForSchema(change.definition.parameters);
  });
}

/** A registry now uses this schema: its synthesized DTOs stay until every user has released it. */
export function retainSchemaDtos(schema: ObjectSchema): void {
  // A node with a developer's DTO class never gets a synthesized one (`dtoForSchema` returns the class): not counted.
  for (const node of objectNodes(schema)) if (node.dto === undefined) holders.set(node, (holders.get(node) ?? 0) + 1);
}

/**
 * A registry no longer uses this schema: DTOs synthesized for nodes no registered tool uses any more are forgotten,
 * and their class-validator and class-transformer metadata released (a developer's own DTO classes are never touched).
 */
export function releaseSchemaDtos(schema: ObjectSchema): void {
  for (const node of objectNodes(schema)) {
    if (node.dto !== undefined) continue;
    const count = (holders.get(node) ?? 1) - 1;
    if (count > 0) {
      holders.set(node, count);
      continue;
    }
    holders.delete(node);
    const dto = synthesized.get(node);
    if (dto === undefined) continue;
    synthesized.delete(node);
    releaseClassMetadata(dto);
  }
}
