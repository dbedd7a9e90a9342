import { DefinitionError } from '../errors/definition-error';
import { classLineage, getOwnParamMetadata, hasAncestors } from '../metadata/param-metadata';
import { applyToolwrightRules } from '../metadata/validator-metadata';
import { forgetResolution, resolveRecord } from '../schema/build-definition';
import { objectNodes } from '../schema/object-nodes';
import type { PropertyResolution } from '../schema/resolve-param';
import type { ObjectSchema } from '../types/schema';
import type { ClassThunk } from '../types/param-options';
import { allowEmptyDto, PropertyRuleSink } from './validation-plan';

/**
 * Applies toolwright's class-validator and class-transformer rules to every decorated DTO class a built schema
 * uses (the DTO, its nested DTOs, and their ancestors), once per class, so plain `plainToInstance` + `validate`
 * accept and reject what the IR says. Each class's rules come from its own records, resolved once by the build;
 * class-validator's inheritance then combines them as it combines a developer's own rules.
 */
export function applyDtoRules(schema: ObjectSchema): void {
  for (const node of objectNodes(schema)) {
    if (node.dto === undefined) continue;
    if (!hasAncestors(node.dto)) applyClassRules(node.dto, false);
    else for (const cls of classLineage(node.dto)) applyClassRules(cls, hasAncestors(cls));
    // class-validator refuses an instance of a class without any rule under forbidUnknownValues: `{}` must pass.
    if (node.properties.length === 0) allowEmptyDto(node.dto);
  }
}

function applyClassRules(cls: Function, inherits: boolean): void {
  const records = getOwnParamMetadata(cls);
  if (records.length === 0) return;
  applyToolwrightRules(cls, () => {
    const sink = new PropertyRuleSink(cls.prototype as object);
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const resolution = resolutionOf(record);
      // A record that cannot be resolved gets no rule: the build that uses it reports the DefinitionError.
      if (resolution === undefined) continue;
      forgetResolution(record);
      sink.apply(record.propertyName, {
        schema: resolution.definition.schema,
        required: resolution.definition.required,
        convertToDate: resolution.convertToDate,
        inherits,
        nestedClass: declaredDtoClass,
      });
    }
  });
}

/** A nested object is validated as its DTO class (a decorated DTO's schema always has one). */
function declaredDtoClass(nested: ObjectSchema): ClassThunk | undefined {
  const dto = nested.dto;
  return dto !== undefined ? () => dto : undefined;
}

function resolutionOf(record: Parameters<typeof resolveRecord>[0]): PropertyResolution | undefined {
  try {
    return resolveRecord(record);
  } catch (error) {
    if (error instanceof DefinitionError) return undefined;
    throw error;
  }
}
