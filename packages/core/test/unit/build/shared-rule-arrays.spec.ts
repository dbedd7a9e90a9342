import 'reflect-metadata';
import { IsString, getMetadataStorage, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { ToolParam, buildObjectSchema } from '@toolwright/core';

/**
 * Registration shortcuts (issue 12, registry memory): what toolwright's class-validator rules share, and that plain
 * class-validator still enforces every shared rule.
 */

describe("toolwright's class-validator rules share frozen constraint arrays", () => {
  it('two DTOs with the same bound share one frozen [bound]; each still enforces it (and -0 keeps an array of its own)', () => {
    class FirstParams {
      @ToolParam({ type: 'int', min: 3 })
      count!: number;
    }
    class SecondParams {
      @ToolParam({ type: 'float', min: 3, required: false })
      amount?: number;
      @ToolParam({ type: 'float', max: -0 })
      below!: number;
    }
    buildObjectSchema(FirstParams);
    buildObjectSchema(SecondParams);
    const rule = (target: Function, property: string, name: string) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(target, '', true, false)
        .find((candidate) => candidate.propertyName === property && candidate.name === name)!;
    const first = rule(FirstParams, 'count', 'min');
    const second = rule(SecondParams, 'amount', 'min');
    expect(first.constraints).toStrictEqual([3]);
    expect(second.constraints).toBe(first.constraints);
    expect(Object.isFrozen(first.constraints)).toBe(true);
    expect(Object.is(rule(SecondParams, 'below', 'max').constraints[0], -0)).toBe(true);
    const defined = getMetadataStorage()
      .getTargetValidationMetadatas(FirstParams, '', true, false)
      .find((candidate) => candidate.propertyName === 'count' && candidate.type === 'isDefined')!;
    expect(defined.groups).toStrictEqual([]);
    const definedBelow = getMetadataStorage()
      .getTargetValidationMetadatas(SecondParams, '', true, false)
      .find((candidate) => candidate.propertyName === 'below' && candidate.type === 'isDefined')!;
    expect(defined.groups).toBe(definedBelow.groups);
    expect(Object.isFrozen(defined.groups)).toBe(true);

    const errors = (dto: new () => object, plain: object) =>
      validateSync(plainToInstance(dto, plain), { forbidUnknownValues: true }).flatMap((error) =>
        Object.keys(error.constraints ?? {}),
      );
    expect(errors(FirstParams, { count: 2 })).toStrictEqual(['min']);
    expect(errors(FirstParams, { count: 3 })).toStrictEqual([]);
    expect(errors(SecondParams, { amount: 2.5, below: 0 })).toStrictEqual(['min']);
    expect(errors(SecondParams, { below: 0.5 })).toStrictEqual(['max']);
    expect(errors(SecondParams, {})).toStrictEqual(['isDefined', 'isNumber', 'max']);
  });
});

describe('patterns share one constraint class', () => {
  it('each use keeps its own pattern (constraint, verdict, message), alone and for each element', () => {
    class CodeParams {
      @ToolParam({ type: 'string', pattern: '^[A-Z]{3}$' })
      code!: string;
      @ToolParam({ type: 'array<string>', pattern: '^[0-9]+$', required: false })
      digits?: string[];
    }
    class SlugParams {
      @ToolParam({ type: 'string', pattern: /^[a-z-]+$/ })
      slug!: string;
    }
    buildObjectSchema(CodeParams);
    buildObjectSchema(SlugParams);
    const matches = (target: Function, property: string) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(target, '', true, false)
        .find((rule) => rule.propertyName === property && rule.name === 'matches')!;
    expect(matches(CodeParams, 'code').constraints).toStrictEqual(['^[A-Z]{3}$']);
    expect(matches(SlugParams, 'slug').constraints).toStrictEqual(['^[a-z-]+$']);
    expect(matches(SlugParams, 'slug').constraintCls).toBe(matches(CodeParams, 'code').constraintCls);

    const messages = (dto: new () => object, plain: object) =>
      validateSync(plainToInstance(dto, plain), { forbidUnknownValues: true }).flatMap((error) =>
        Object.values(error.constraints ?? {}),
      );
    expect(messages(CodeParams, { code: 'ABC', digits: ['12'] })).toStrictEqual([]);
    expect(messages(CodeParams, { code: 'abc', digits: ['12', 'x'] })).toStrictEqual([
      'code must match /^[A-Z]{3}$/',
      'each value in digits must match /^[0-9]+$/',
    ]);
    expect(messages(SlugParams, { slug: 'ABC' })).toStrictEqual(['slug must match /^[a-z-]+$/']);
    expect(messages(SlugParams, { slug: 'a-b' })).toStrictEqual([]);
  });
});

describe("toolwright's class-validator rules keep only their own fields", () => {
  it('a rule owns its target, property and any constraints of its own; what every use of its kind shares is on its prototype', () => {
    class PlaceParams {
      @ToolParam({ type: 'string', maxLength: 20 })
      city!: string;
    }
    class TripParams {
      @ToolParam({ type: 'string', maxLength: 10 })
      name!: string;
      @ToolParam({ type: 'array<string>', maxLength: 5, required: false })
      tags?: string[];
      @ToolParam({ type: () => PlaceParams })
      place!: PlaceParams;
    }
    buildObjectSchema(TripParams);
    const rules = getMetadataStorage().getTargetValidationMetadatas(TripParams, '', true, false);
    const find = (property: string, predicate: (rule: (typeof rules)[number]) => boolean) =>
      rules.find((rule) => rule.propertyName === property && predicate(rule))!;
    const nameMax = find('name', (rule) => rule.name === 'maxLength');
    const cityMax = getMetadataStorage()
      .getTargetValidationMetadatas(PlaceParams, '', true, false)
      .find((rule) => rule.name === 'maxLength')!;
    const tagsMax = find('tags', (rule) => rule.name === 'maxLength');
    const nested = find('place', (rule) => rule.type === 'nestedValidation');

    for (const rule of [nameMax, tagsMax])
      expect(Object.keys(rule).sort()).toStrictEqual(['constraints', 'propertyName', 'target']);
    // A rule without constraints of its own reads its kind's from the prototype.
    expect(Object.keys(nested).sort()).toStrictEqual(['propertyName', 'target']);
    expect(nested.constraints).toBe(Object.getPrototypeOf(nested).constraints);
    expect(nameMax.target).toBe(TripParams);
    expect(nameMax.constraints).toStrictEqual([10]);
    expect(cityMax.constraints).toStrictEqual([20]);
    // One prototype per kind: the fields class-validator's constructor sets from the decorator's options.
    expect(Object.getPrototypeOf(nameMax)).toBe(Object.getPrototypeOf(cityMax));
    expect(Object.getPrototypeOf(tagsMax)).not.toBe(Object.getPrototypeOf(nameMax));
    expect([nameMax.each === true, tagsMax.each]).toStrictEqual([false, true]);
    expect(nameMax.type).toBe('customValidation');
    expect(nameMax.constraintCls).toBe(cityMax.constraintCls);
    // Still instances of class-validator's ValidationMetadata (the class of a rule its own decorator stores).
    class PlainParams {
      @IsString()
      text!: string;
    }
    const validationMetadata = getMetadataStorage().getTargetValidationMetadatas(PlainParams, '', true, false)[0]!
      .constructor as new () => object;
    for (const rule of [nameMax, tagsMax, nested]) expect(rule).toBeInstanceOf(validationMetadata);

    const messages = (plain: object) =>
      validateSync(plainToInstance(TripParams, plain), { forbidUnknownValues: true }).flatMap((error) => [
        ...Object.values(error.constraints ?? {}),
        ...(error.children ?? []).flatMap((child) => Object.values(child.constraints ?? {})),
      ]);
    expect(messages({ name: 'Lisbon', tags: ['sea'], place: { city: 'Lisbon' } })).toStrictEqual([]);
    expect(
      messages({ name: 'Lisbon in May', tags: ['sea', 'sunshine'], place: { city: 'x'.repeat(21) } }),
    ).toStrictEqual([
      'name must be shorter than or equal to 10 characters',
      'each value in tags must be shorter than or equal to 5 characters',
      'city must be shorter than or equal to 20 characters',
    ]);
    expect(messages({ name: 'Lisbon', place: 'Lisbon' })).toStrictEqual([
      'place must be an object',
      'nested property place must be either object or array',
    ]);
  });
});

describe('constraints every use of a kind has are kept once, on the kind', () => {
  it("IsOptional's condition and IsNumber's options are the prototype's; optional and finite checks still hold", () => {
    class ReadingParams {
      @ToolParam({ type: 'float' })
      level!: number;
      @ToolParam({ type: 'string', required: false })
      note?: string;
      @ToolParam({ type: 'array<float>', required: false })
      samples?: number[];
    }
    buildObjectSchema(ReadingParams);
    const rules = getMetadataStorage().getTargetValidationMetadatas(ReadingParams, '', true, false);
    const kindRules = rules.filter((rule) => rule.name === 'isOptional' || rule.name === 'isNumber');
    expect(kindRules.map((rule) => `${rule.propertyName}:${rule.name ?? rule.type}`)).toStrictEqual([
      'level:isNumber',
      'note:isOptional',
      'samples:isOptional',
      'samples:isNumber',
    ]);
    for (const rule of kindRules) {
      expect(Object.keys(rule).sort()).toStrictEqual(['propertyName', 'target']);
      expect(rule.constraints).toBe(Object.getPrototypeOf(rule).constraints);
    }
    expect(kindRules[0]!.constraints).toStrictEqual([{ allowNaN: false, allowInfinity: false }]);

    const messages = (plain: object) =>
      validateSync(plainToInstance(ReadingParams, plain), { forbidUnknownValues: true }).flatMap((error) =>
        Object.values(error.constraints ?? {}),
      );
    expect(messages({ level: 1.5 })).toStrictEqual([]);
    expect(messages({ level: 2, note: null, samples: null })).toStrictEqual([]);
    expect(messages({ level: Infinity, note: 3, samples: [1, NaN] })).toStrictEqual([
      'level must be a number conforming to the specified constraints',
      'note must be a string',
      'each value in samples must be a number conforming to the specified constraints',
    ]);
  });
});

describe("a required property gets a conditional rule only where it shadows an ancestor's", () => {
  it('none on a class without ancestors; one that always holds on a subclass, where an ancestor made it optional', () => {
    class NoteParams {
      @ToolParam({ type: 'string', required: false })
      text?: string;
      @ToolParam({ type: 'string' })
      title!: string;
    }
    class SignedNoteParams extends NoteParams {
      @ToolParam({ type: 'string' })
      override text!: string;
    }
    buildObjectSchema(SignedNoteParams);
    const conditional = (target: Function) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(target, '', true, false)
        .filter((rule) => rule.target === target && rule.type === 'conditionalValidation')
        .map((rule) => [rule.propertyName, rule.name]);
    expect(conditional(NoteParams)).toStrictEqual([['text', 'isOptional']]);
    expect(conditional(SignedNoteParams)).toStrictEqual([['text', undefined]]);

    const errors = (dto: new () => object, plain: object) =>
      validateSync(plainToInstance(dto, plain), { forbidUnknownValues: true }).flatMap((error) =>
        Object.keys(error.constraints ?? {}),
      );
    expect(errors(NoteParams, {})).toStrictEqual(['isDefined', 'isString']);
    expect(errors(NoteParams, { title: 'a' })).toStrictEqual([]);
    // The subclass's own conditional rule hides the ancestor's IsOptional: `text` is required there.
    expect(errors(SignedNoteParams, { title: 'a' })).toStrictEqual(['isDefined', 'isString']);
    expect(errors(SignedNoteParams, { title: 'a', text: 'b' })).toStrictEqual([]);
  });
});
