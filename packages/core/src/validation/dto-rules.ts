import { DefinitionError } from '../errors/definition-error';
import { classLineage, getOwnParamMetadata, hasAncestors } from '../metadata/param-metadata';
import { applyToolwrightRules } from '../metadata/validator-metadata';
import { forgetResolution, resolveRecord } from '../schema/build-definition';
import { objectNodes } from '../schema/object-nodes';
import type { PropertyResolution } from '../schema/resolve-param';
import type { ObjectSchema, ParamSchema } from '../types/schema';
import type { ClassThunk } from '../types/param-options';
import { allowEmptyDto, PropertyRuleSink, type ValidationPlan } from './validation-plan';

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
    // One plan object for the class's properties, filled in for each (the rules derived from it keep nothing of it).
    const plan: { -readonly [K in keyof ValidationPlan]: ValidationPlan[K] } = {
      schema: NO_SCHEMA,
      required: false,
      convertToDate: false,
      inherits,
      nestedClass: declaredDtoClass,
    };
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const resolution = resolutionOf(record);
      // A record that cannot be resolved gets no rule: the build that uses it reports the DefinitionError.
      if (resolution === undefined) continue;
      forgetResolution(record);
      plan.schema = resolution.definition.schema;
      plan.required = resolution.definition.required;
      plan.convertToDate = resolution.convertToDate;
      sink.apply(record.propertyName, plan);
    }
  });
}

const NO_SCHEMA: ParamSchema = Object.freeze({ kind: 'any' });

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
