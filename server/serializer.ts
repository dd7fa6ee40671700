import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialisation (issue 14 item 2; docs/performance.md): each route's zod response schema
 * becomes JSON Schema (zod 4's `z.toJSONSchema`, output side, draft-07) and Fastify's own compiled
 * serializer, fast-json-stringify, writes the answer from it — no zod pass per answer. The zod
 * schemas stay the single source: the JSON Schema is derived from them at start-up, and with
 * `validate` (every mode but production, so the whole server suite runs with it) each answer is
 * also checked by zod first, exactly as fastify-type-provider-zod's serializer does (a wrong
 * answer is still a 500 ResponseSerializationError), and the compiled text must read as the same
 * JSON as zod's JSON.stringify of it (key order aside: fast-json-stringify writes optional keys
 * after required ones; answers over {@link COMPARE_MAX_CHARS} are sent as zod wrote them), so the suite
 * proves no answer loses a field or changes a type.
 *
 * fast-json-stringify writes only the properties the schema names (as zod's parse strips unknown
 * keys) and throws on a missing required one. A schema zod cannot express as JSON Schema (a
 * transform on the output side) falls back to the zod serializer for that route.
 */
export function compiledSerializerCompiler({ validate }: { validate: boolean }): FastifySerializerCompiler<unknown> {
  const zodSerializer = createSerializerCompiler({}) as unknown as FastifySerializerCompiler<unknown>;
  return (route) => {
    const checked = zodSerializer(route);
    const schema = resolveSchema(route.schema);
    const stringify = schema ? compile(schema) : null;
    if (!stringify) return checked;
    if (!validate) return stringify;
    return (data) => {
      const expected = checked(data); // throws ResponseSerializationError like the zod serializer
      if (expected.length > COMPARE_MAX_CHARS) return expected;
      const written = stringify(data);
      if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`Compiled serializer of ${route.method} ${route.url} differs from zod's:\n${written}\n${expected}`);
      }
      return written;
    };
  };
}

/**
 * Largest answer whose two outputs are compared (characters). A larger one — a 20 000-lot import
 * preview — is checked by zod and sent as zod wrote it: writing and parsing it twice more would
 * hold the event loop for most of a second in the test mode
 * (tests/server/import-resilience.test.ts measures it). Production writes it with the compiled
 * serializer like any other.
 */
const COMPARE_MAX_CHARS = 512 * 1024;

/** The zod schema of a route's response (a schema, or `{ properties: schema }`), else null. */
function resolveSchema(schema: unknown): z.ZodType | null {
  if (schema instanceof z.core.$ZodType) return schema as z.ZodType;
  const inner = (schema as { properties?: unknown } | null)?.properties;
  return inner instanceof z.core.$ZodType ? (inner as z.ZodType) : null;
}

/**
 * Serializers already compiled, per zod schema object (the schemas are module constants): an app
 * built again in the same process — each server test builds one — reuses them instead of paying
 * the JSON Schema conversion and fast-json-stringify's code generation again (~0.45 s an app on a
 * loaded 2-core machine, docs/testing.md "An app per test"). A compiled serializer is a pure function.
 */
const compiled = new WeakMap<z.ZodType, ((data: unknown) => string) | null>();

/** {@link compileOnce} remembered per schema ({@link compiled}). */
function compile(schema: z.ZodType): ((data: unknown) => string) | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  const stringify = compileOnce(schema);
  compiled.set(schema, stringify);
  return stringify;
}

/** fast-json-stringify over the schema's output JSON Schema, or null when it cannot be expressed. */
function compileOnce(schema: z.ZodType): ((data: unknown) => string) | null {
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(mergeNullable(json) as Parameters<typeof fastJson>[0]);
  } catch {
    return null;
  }
}

/**
 * zod writes `T | null` as `anyOf: [{ type: T, … }, { type: 'null' }]`; fast-json-stringify picks
 * an anyOf branch by validating the value (slow: 1.7× on a 20 000-lot preview), so each such pair
 * becomes `{ type: [T, 'null'], … }`, which it writes directly. Other anyOfs stay.
 */
function mergeNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = mergeNullable(value);
  const branches = out.anyOf as Array<Record<string, unknown>> | undefined;
  if (!branches || branches.length !== 2) return out;
  const nullAt = branches.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
  const other = nullAt < 0 ? undefined : branches[1 - nullAt];
  if (!other || typeof other.type !== 'string' || 'anyOf' in other) return out;
  const { anyOf: _anyOf, ...rest } = out;
  return { ...rest, ...other, type: [other.type, 'null'] };
}
