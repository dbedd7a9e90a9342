import 'reflect-metadata';
import { IsEmail, IsOptional, IsString, MaxLength, MinLength, getMetadataStorage } from 'class-validator';
import { ToolParam, buildObjectSchema } from '@toolwright/core';
import { getValidatorMetadata } from '@toolwright/core/internal';

describe('class-validator metadata: read for one class lineage only', () => {
  it('lists the rules of the class, marking the ones toolwright applied', () => {
    class ContactParams {
      @IsEmail()
      @ToolParam({ maxLength: 80 })
      email!: string;
    }
    // Toolwright applies its rules when the DTO is built; before that, every rule is the developer's.
    expect(getValidatorMetadata(ContactParams).map((rule) => rule.name)).toStrictEqual(['isEmail']);
    buildObjectSchema(ContactParams);
    const rules = getValidatorMetadata(ContactParams).map(
      ({ propertyName, type, name, each, appliedByToolwright, constraints }) => ({
        propertyName,
        type,
        name,
        each,
        appliedByToolwright,
        constraints,
      }),
    );
    expect(rules).toStrictEqual([
      {
        propertyName: 'email',
        type: 'isDefined',
        name: 'isDefined',
        each: false,
        appliedByToolwright: true,
        constraints: [],
      },
      {
        propertyName: 'email',
        type: 'customValidation',
        name: 'isString',
        each: false,
        appliedByToolwright: true,
        constraints: [],
      },
      {
        propertyName: 'email',
        type: 'customValidation',
        name: 'maxLength',
        each: false,
        appliedByToolwright: true,
        constraints: [80],
      },
      {
        propertyName: 'email',
        type: 'customValidation',
        name: 'isEmail',
        each: false,
        appliedByToolwright: false,
        constraints: [undefined],
      },
    ]);
    expect(getValidatorMetadata(ContactParams, { developerRulesOnly: true }).map((rule) => rule.name)).toStrictEqual([
      'isEmail',
    ]);
  });

  it('follows class-validator inheritance: a subclass rule of the same type replaces the parent rules for that property', () => {
    class BaseParams {
      @IsString()
      @MinLength(2)
      name!: string;
      @IsOptional()
      @IsString()
      note?: string;
    }
    class ChildParams extends BaseParams {
      @MaxLength(5)
      override name!: string;
    }
    const rules = getValidatorMetadata(ChildParams).map(
      (rule) => `${rule.target === ChildParams ? 'Child' : 'Base'}.${rule.propertyName}:${rule.name ?? rule.type}`,
    );
    // Decorators apply bottom-up, so IsString is stored before IsOptional.
    expect(rules).toStrictEqual(['Base.note:isString', 'Base.note:isOptional', 'Child.name:maxLength']);
  });

  it('building a DTO never asks class-validator for a scan over every class', () => {
    const storage = getMetadataStorage();
    const scan = jest.spyOn(storage, 'getTargetValidationMetadatas');
    class ScanParams {
      @ToolParam() name!: string;
      @IsEmail() email!: string;
    }
    try {
      buildObjectSchema(ScanParams);
      expect(scan).not.toHaveBeenCalled();
    } finally {
      scan.mockRestore();
    }
  });
});

describe("toolwright's rules of a class, told apart from the developer's", () => {
  it("a rule the developer adds after registration is neither toolwright's nor in the snapshot of the developer's", () => {
    class ProfileParams {
      @MinLength(2)
      @ToolParam({ maxLength: 40 })
      nickname!: string;
    }
    buildObjectSchema(ProfileParams);
    const before = getValidatorMetadata(ProfileParams).map((rule) => [rule.name, rule.appliedByToolwright]);
    expect(before).toStrictEqual([
      ['isDefined', true],
      ['isString', true],
      ['maxLength', true],
      ['minLength', false],
    ]);
    // Decorated later (class-validator appends it to the class's rules, after toolwright's).
    IsOptional()(ProfileParams.prototype, 'nickname');
    const stored = getMetadataStorage()
      .getTargetValidationMetadatas(ProfileParams, '', true, false)
      .map((rule) => rule.name ?? rule.type);
    expect(stored).toContain('isOptional');
    expect(getValidatorMetadata(ProfileParams).map((rule) => [rule.name, rule.appliedByToolwright])).toStrictEqual(
      before,
    );
    expect(getValidatorMetadata(ProfileParams, { developerRulesOnly: true }).map((rule) => rule.name)).toStrictEqual([
      'minLength',
    ]);
  });
});
