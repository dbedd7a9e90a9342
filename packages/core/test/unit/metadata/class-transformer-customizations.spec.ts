import 'reflect-metadata';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { hasClassTransformerCustomizations } from '../../../src/metadata/validator-metadata';

/**
 * Whether class-transformer customizes a DTO (which keeps its instances on `plainToInstance`) is read from
 * class-transformer's own per-class maps. The answers must be what its public finders say (the oracle below), and
 * asking must not make class-transformer remember the class's ancestors (an entry per class, for good).
 */

const PLAIN_TO_CLASS = 0;

// class-transformer exports its storage only from this path (what toolwright's own reader loads).
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

function oracle(dto: Function, names: readonly string[], dates: ReadonlySet<string>): boolean {
  const storage = defaultMetadataStorage;
  if (storage.getExposedMetadatas(dto).length > 0 || storage.getExcludedMetadatas(dto).length > 0) return true;
  return names.some((name) => {
    if (storage.findTransformMetadatas(dto, name, PLAIN_TO_CLASS).length > (dates.has(name) ? 1 : 0)) return true;
    const type = storage.findTypeMetadata(dto, name);
    return type?.options?.discriminator !== undefined || type?.options?.keepDiscriminatorProperty === true;
  });
}

function ancestorsKept(): number {
  return (defaultMetadataStorage as unknown as { _ancestorsMap: Map<unknown, unknown> })._ancestorsMap.size;
}

class Leaf {}
class OtherLeaf {}

class Plain {
  @Type(() => Leaf)
  leaf!: Leaf;
  name!: string;
}
class WithDate {
  @Transform(({ value }) => value, { toClassOnly: true })
  when!: Date;
}
class TwoTransformsOnDate {
  @Transform(({ value }) => value, { toClassOnly: true })
  @Transform(({ value }) => value)
  when!: Date;
}
class PlainOnlyTransform {
  @Transform(({ value }) => value, { toPlainOnly: true })
  name!: string;
}
class BothWaysTransform {
  @Transform(({ value }) => value, { toClassOnly: true, toPlainOnly: true })
  name!: string;
}
class ExposedProperty {
  @Expose({ name: 'full_name' })
  name!: string;
}
@Expose()
class ExposedClassOnly {
  name!: string;
}
class ExcludedBase {
  @Exclude()
  secret!: string;
}
class ExcludedChild extends ExcludedBase {
  name!: string;
}
class DiscriminatedBase {
  @Type(() => Leaf, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'leaf', value: Leaf },
        { name: 'other', value: OtherLeaf },
      ],
    },
  })
  item!: Leaf | OtherLeaf;
}
class DiscriminatedChild extends DiscriminatedBase {}
class TransformedBase {
  @Transform(({ value }) => value)
  name!: string;
}
class TransformedChild extends TransformedBase {}

const cases: ReadonlyArray<[Function, readonly string[], readonly string[], boolean]> = [
  [Plain, ['leaf', 'name'], [], false],
  [WithDate, ['when'], ['when'], false],
  [WithDate, ['when'], [], true],
  [TwoTransformsOnDate, ['when'], ['when'], true],
  [PlainOnlyTransform, ['name'], [], false],
  [BothWaysTransform, ['name'], [], true],
  [ExposedProperty, ['name'], [], true],
  [ExposedClassOnly, ['name'], [], false],
  [ExcludedChild, ['name'], [], true],
  [DiscriminatedChild, ['item'], [], true],
  [TransformedChild, ['name'], [], true],
  [TransformedChild, ['other'], [], false],
];

describe('class-transformer customizations of a DTO, read from its own maps', () => {
  it("answers as class-transformer's finders do, without making it keep the class's ancestors", () => {
    const kept = ancestorsKept();
    const answers = cases.map(([dto, names, dates]) => hasClassTransformerCustomizations(dto, names, new Set(dates)));
    expect(ancestorsKept()).toBe(kept);
    expect(answers).toStrictEqual(cases.map(([, , , expected]) => expected));
    expect(cases.map(([dto, names, dates]) => oracle(dto, names, new Set(dates)))).toStrictEqual(answers);
  });
});
