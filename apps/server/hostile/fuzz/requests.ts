import fc from 'fast-check';

/**
 * Generators of hostile HTTP requests for the fuzzing run (`npm run test:fuzz`), driven by the app's own
 * OpenAPI document: every documented call, with its body, path and query schemas as the starting point, then
 * bent every way a client can bend them (wrong types, huge and empty strings, unicode, bad ids, bad JSON, bad
 * multipart, missing and forged cookies, a foreign Origin, oversize bodies).
 */

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
}

/** One documented call: method, path template (`{giftId}`), and the schemas of its inputs. */
export interface Operation {
  method: string;
  path: string;
  body: JsonSchema | null;
  params: Record<string, JsonSchema>;
  query: Record<string, JsonSchema>;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        parameters?: { in: string; name: string; schema: JsonSchema }[];
      }
    >
  >;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const inputs = (where: string) =>
        Object.fromEntries(
          (op.parameters ?? []).filter((x) => x.in === where).map((x) => [x.name, x.schema]),
        );
      ops.push({
        method: method.toUpperCase(),
        path: p,
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        params: inputs('path'),
        query: inputs('query'),
      });
    }
  }
  return ops;
}

/** Known-good values the generators mix in, so requests also reach past the first checks. */
export interface Pools {
  giftIds: string[];
  emails: string[];
  ids: string[];
}

export type CookieMode = 'none' | 'sender' | 'otherSender' | 'recipient' | 'reveal' | 'forged' | 'garbage';
export type OriginMode = 'none' | 'own' | 'foreign' | 'null' | 'lookalike' | 'crossSiteFetch' | 'sameSiteFetch';
export type BodyKind =
  'none' | 'json' | 'badJson' | 'emptyJson' | 'wrongType' | 'oversize' | 'multipart' | 'raw';

export interface FuzzRequest {
  op: Operation;
  url: string;
  /** True when the router refuses the path before any hook: a malformed %-escape, a parameter too long. */
  badUrl: boolean;
  cookie: CookieMode;
  origin: OriginMode;
  bodyKind: BodyKind;
  contentType: string | undefined;
  payload: string | Buffer | undefined;
}

const HUGE = 'x'.repeat(200_000);
const OVERSIZE = `{"text":"${'y'.repeat(1024 * 1024 + 16)}"}`;

/** Strings an attacker tries: empty, blank, control characters, traversal, markup, SQL, emoji, RTL, lone surrogates. */
const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\r\n',
    '../../../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    '<script>alert(1)</script>',
    "'; DROP TABLE gifts; --",
    '\u202egnp.exe',
    '👩‍👩‍👧‍👦🎁',
    '\ud800',
    'null',
    'undefined',
    'NaN',
    '-1',
    '1e309',
    '__proto__',
    'constructor',
    '%00',
    'a@b',
    'x@example.com'.padStart(300, 'a'),
    HUGE,
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 3000 }),
);

/** Any JSON value of the wrong kind. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1, [], {}, { $gt: '' }, ['a', 'b']),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
);

function validString(name: string, s: JsonSchema, pools: Pools): fc.Arbitrary<string> {
  if (s.pattern === '^[0-9a-f]{32}$')
    return fc.oneof(fc.constantFrom(...pools.giftIds), fc.stringMatching(/^[0-9a-f]{32}$/));
  if (s.format === 'date-time')
    return fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2035-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  if (s.format === 'uri')
    return fc.oneof(fc.webUrl(), fc.constant('https://fcm.googleapis.com/fcm/send/abc'));
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
  if (/email/i.test(name)) return fc.oneof(fc.constantFrom(...pools.emails), fc.emailAddress());
  if (/id$/i.test(name))
    return fc.oneof(fc.constantFrom(...pools.ids), fc.string({ minLength: 1, maxLength: 40 }));
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 60, 200) });
}

/** A value that fits the schema (the generators then break some of them). */
function validValue(name: string, s: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  const base = ((): fc.Arbitrary<unknown> => {
    if (s.enum) return fc.constantFrom(...s.enum);
    if (s.anyOf?.[0]) return validValue(name, s.anyOf[0], pools);
    switch (s.type ?? 'any') {
      case 'string':
        return validString(name, s, pools);
      case 'integer':
        return fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e9), max: Math.min(s.maximum ?? 1e6, 1e9) });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
      case 'boolean':
        return fc.boolean();
      case 'object':
        return objectOf(s, pools);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return s.nullable ? fc.option(base, { nil: null }) : base;
}

/** An object for the schema: each field valid, of a wrong kind, or missing; sometimes extra fields. */
function objectOf(s: JsonSchema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(s.properties ?? {});
  const field = (name: string, p: JsonSchema) =>
    fc.oneof(
      { weight: 6, arbitrary: validValue(name, p, pools).map((v) => ({ v })) },
      { weight: 2, arbitrary: wrongValue.map((v) => ({ v })) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  return fc
    .tuple(
      fc.tuple(...props.map(([name, p]) => field(name, p))),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), {
            maxKeys: 3,
          }),
        },
      ),
    )
    .map(([values, extra]) => {
      const out: Record<string, unknown> = { ...extra };
      props.forEach(([name], i) => {
        const got = values[i];
        if (got) out[name] = got.v;
      });
      return out;
    });
}

function badJson(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '{',
      '{"email":',
      "{'email':'a@b.c'}",
      '{"a":1,}',
      'undefined',
      'NaN',
      '\u0000',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '[1,2,3]',
      '"a string"',
      '123',
      'null',
      '['.repeat(20_000) + ']'.repeat(20_000),
      '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
    ),
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(1, Math.floor(j.length / 2)))),
  );
}

/** Multipart field and file names each call reads (they are not in the OpenAPI document). */
const MULTIPART_FIELDS: Record<string, { fields: string[]; files: string[] }> = {
  '/api/gift-sender/submit-gift': {
    fields: ['recipientName', 'recipientEmail', 'occasion', 'planId'],
    files: ['giftImage'],
  },
  '/api/gift-sender/gifts/{giftId}/photos': { fields: [], files: ['giftImage'] },
  '/api/verification-recipient/process-scan/{giftId}': { fields: ['type'], files: ['scan'] },
  '/api/verification-recipient/process-scan': { fields: ['recipient_id'], files: ['scan'] },
  '/api/verification-recipient/live-frame/{giftId}': { fields: ['type'], files: ['scan'] },
  '/api/verification-recipient/live-frame': { fields: ['recipient_id'], files: ['scan'] },
  '/api/reactions/upload': { fields: ['reactionId', 'playbackSessionId'], files: ['reaction'] },
  '/api/demo/scan/{demoId}': { fields: [], files: ['scan'] },
};

export const isMultipartRoute = (op: Operation) => op.path in MULTIPART_FIELDS;

const headerSafe = fc
  .string({ maxLength: 30 })
  .map((s) => s.replace(/[^\x20-\x7e]/g, '?').replace(/"/g, "'"));

/** A multipart body: well-formed or not (no boundary, another boundary, cut short, too many parts). */
function multipartBody(
  op: Operation,
  pools: Pools,
  image: Buffer,
): fc.Arbitrary<{ contentType: string; payload: Buffer }> {
  const names = MULTIPART_FIELDS[op.path] ?? { fields: [], files: [] };
  const fieldName = fc.oneof(fc.constantFrom(...names.fields, 'x'), headerSafe);
  const fileName = fc.oneof(fc.constantFrom(...names.files, 'file'), headerSafe);
  const part = fc.oneof(
    fc.record({
      name: fieldName,
      value: fc.oneof(
        fc.constantFrom(...pools.ids, 'direct', 'birthday', 'premium_us', ...pools.emails),
        nastyString,
      ),
    }),
    fc.record({
      name: fileName,
      filename: fc.oneof(fc.constantFrom('a.jpg', '../../x.jpg', 'r.webm', ''), headerSafe),
      type: fc.constantFrom(
        'image/jpeg',
        'image/png',
        'video/webm',
        'text/html',
        'application/octet-stream',
        '',
      ),
      data: fc.oneof(
        { weight: 6, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)) },
        { weight: 1, arbitrary: fc.constant(image) },
        { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
      ),
    }),
  );
  return fc
    .record({
      parts: fc.array(part, { maxLength: 6 }),
      manyParts: fc.oneof(
        { weight: 15, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 21, max: 60 }) },
      ),
      boundary: fc.constantFrom('declared', 'missing', 'other', 'garbage'),
      cut: fc.oneof(
        { weight: 4, arbitrary: fc.constant(1) },
        { weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
      ),
    })
    .map(({ parts, manyParts, boundary, cut }) => {
      const b = 'fuzzb0undary';
      const chunks: Buffer[] = [];
      for (const p of parts) {
        if ('value' in p) {
          chunks.push(
            Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`),
          );
        } else {
          const type = p.type ? `Content-Type: ${p.type}\r\n` : '';
          chunks.push(
            Buffer.from(
              `--${b}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n${type}\r\n`,
            ),
            p.data,
            Buffer.from('\r\n'),
          );
        }
      }
      for (let i = 0; i < manyParts; i++)
        chunks.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`));
      chunks.push(Buffer.from(`--${b}--\r\n`));
      const whole = Buffer.concat(chunks);
      const payload = whole.subarray(0, Math.floor(whole.length * cut));
      const contentType = {
        declared: `multipart/form-data; boundary=${b}`,
        missing: 'multipart/form-data',
        other: 'multipart/form-data; boundary=somethingelse',
        garbage: 'multipart/form-data; boundary=',
      }[boundary];
      return { contentType, payload };
    });
}

function pathParam(
  name: string,
  s: JsonSchema,
  pools: Pools,
): fc.Arbitrary<{ value: string; badUrl: boolean }> {
  // A parameter over the router's 100-character limit, or a lone surrogate (sent as its raw, invalid UTF-8
  // bytes), is refused by the router before any hook runs.
  const encode = (v: string) => {
    try {
      const value = encodeURIComponent(v);
      return { value, badUrl: value.length > 100 };
    } catch {
      return { value: '%ED%A0%80', badUrl: true };
    }
  };
  return fc.oneof(
    { weight: 5, arbitrary: validValue(name, s, pools).map((v) => encode(String(v))) },
    { weight: 3, arbitrary: nastyString.map(encode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(101, 500, 5000).map((n) => ({ value: 'f'.repeat(n), badUrl: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('%E0%A4%A', '%', '%zz', '%C0%AE%C0%AE')
        .map((value) => ({ value, badUrl: true })),
    },
  );
}

function queryOf(op: Operation, pools: Pools): fc.Arbitrary<string> {
  const entries = Object.entries(op.query);
  return fc
    .tuple(
      fc.tuple(
        ...entries.map(([name, s]) =>
          fc.option(fc.oneof(validValue(name, s, pools), nastyString), { nil: undefined }),
        ),
      ),
      fc.option(fc.dictionary(fc.string({ maxLength: 8 }), nastyString, { maxKeys: 2 }), { nil: undefined }),
    )
    .map(([values, extra]) => {
      const q = new URLSearchParams();
      entries.forEach(([name], i) => {
        const v = values[i];
        if (v !== undefined) q.append(name, typeof v === 'string' ? v : JSON.stringify(v));
      });
      for (const [k, v] of Object.entries(extra ?? {})) q.append(k, v);
      const s = q.toString();
      return s ? `?${s}` : '';
    });
}

/** One hostile request against one of `ops`. */
export function requestArbitrary(ops: Operation[], pools: Pools, image: Buffer): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...ops).chain((op) => {
    const paramNames = Object.keys(op.params);
    const params = fc.tuple(...paramNames.map((n) => pathParam(n, op.params[n] ?? {}, pools)));
    const multipart = isMultipartRoute(op);
    const body: fc.Arbitrary<{
      bodyKind: BodyKind;
      contentType: string | undefined;
      payload: string | Buffer | undefined;
    }> = fc.oneof(
      {
        weight: op.body ? 10 : multipart ? 0 : 3,
        arbitrary: (op.body ? objectOf(op.body, pools) : fc.constant({})).map((o) => ({
          bodyKind: 'json' as const,
          contentType: 'application/json',
          payload: JSON.stringify(o),
        })),
      },
      {
        weight: 2,
        arbitrary: wrongValue.map((v) => ({
          bodyKind: 'wrongType' as const,
          contentType: 'application/json',
          payload: JSON.stringify(v) ?? 'null',
        })),
      },
      {
        weight: 3,
        arbitrary: badJson().map((payload) => ({
          bodyKind: 'badJson' as const,
          contentType: 'application/json',
          payload,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.constant({
          bodyKind: 'emptyJson' as const,
          contentType: 'application/json',
          payload: '',
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constant({
          bodyKind: 'oversize' as const,
          contentType: 'application/json',
          payload: OVERSIZE,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.constant({ bodyKind: 'none' as const, contentType: undefined, payload: undefined }),
      },
      {
        weight: 2,
        arbitrary: fc
          .record({
            contentType: fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/xml',
              'image/jpeg',
              'application/json; charset=utf-16',
              'garbage',
            ),
            payload: fc.oneof(
              nastyString,
              fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
            ),
          })
          .map((r) => ({ bodyKind: 'raw' as const, ...r })),
      },
      {
        weight: multipart ? 12 : 1,
        arbitrary: multipartBody(op, pools, image).map((m) => ({ bodyKind: 'multipart' as const, ...m })),
      },
    );
    return fc
      .record({
        params,
        query: queryOf(op, pools),
        body:
          op.method === 'GET' || op.method === 'DELETE'
            ? fc.oneof(
                {
                  weight: 6,
                  arbitrary: fc.constant({
                    bodyKind: 'none' as const,
                    contentType: undefined,
                    payload: undefined,
                  }),
                },
                { weight: 1, arbitrary: body },
              )
            : body,
        cookie: fc.constantFrom<CookieMode>(
          'none',
          'sender',
          'sender',
          'sender',
          'otherSender',
          'recipient',
          'reveal',
          'forged',
          'garbage',
        ),
        // Mostly no Origin or our own, so most requests get past the cross-site check to the input checks behind it.
        origin: fc.constantFrom<OriginMode>(
          'none',
          'none',
          'none',
          'none',
          'none',
          'own',
          'own',
          'own',
          'own',
          'own',
          'foreign',
          'null',
          'lookalike',
          'crossSiteFetch',
          'sameSiteFetch',
        ),
      })
      .map(({ params, query, body, cookie, origin }) => {
        let url = op.path;
        paramNames.forEach((n, i) => {
          url = url.replace(`{${n}}`, params[i]?.value ?? '');
        });
        return { op, url: url + query, badUrl: params.some((p) => p.badUrl), cookie, origin, ...body };
      });
  });
}
