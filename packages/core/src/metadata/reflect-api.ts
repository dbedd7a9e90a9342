/** The part of the `reflect-metadata` polyfill toolwright uses (typed here so no global typings are needed). */
interface ReflectMetadataApi {
  defineMetadata(key: unknown, value: unknown, target: object, propertyKey?: string | symbol): void;
  getMetadata(key: unknown, target: object, propertyKey?: string | symbol): unknown;
  getOwnMetadata(key: unknown, target: object, propertyKey?: string | symbol): unknown;
  hasMetadata(key: unknown, target: object, propertyKey?: string | symbol): boolean;
}

/** The only handle on `Reflect` in toolwright; every read and write goes through the accessors in this folder. */
export const reflectMetadata = Reflect as unknown as ReflectMetadataApi;
