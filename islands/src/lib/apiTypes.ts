// The API's data as openapi.json describes it: generated into openapi.d.ts by
// `npm run gen:types` (run before every type check), so a field the server renames or retypes
// fails `npm run typecheck` wherever the islands read or send it.
import type { components } from './openapi';

/** The schemas of openapi.json (`components.schemas`), by name. */
export type Schemas = components['schemas'];

/** The answers of openapi.json (`components.responses`), e.g. the 413 of an upload. */
export type Responses = components['responses'];

/**
 * A request body narrower than its schema (which takes loose input such as ids as strings):
 * `T` may use only the schema's fields, each with a type the schema accepts, so a renamed or
 * retyped field fails the type check here.
 */
export type Narrowed<S, T extends { [K in keyof T]: K extends keyof S ? S[K] : never }> = T;

/** `T` with its optional fields present: what the API may leave out becomes `null`-able only. */
export type Present<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
