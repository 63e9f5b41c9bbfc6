import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_DOCS_PATH, isApiCall } from './response-headers.ts';

/** Only the API is documented: the web app's files, the media URLs and the reference itself are not calls. */
const apiOnly: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const documented = isApiCall(input.url);
  return documented ? out : { ...out, schema: { ...out.schema, hide: true } };
};

/**
 * The contract's zod schemas as every route's validator and serializer, and the API reference built from them
 * (`/api/docs`, OpenAPI 3 at `/api/docs/json`). fastify-plugin: the compilers and swagger's route collector are the
 * root's, so every module's routes, registered after, are validated and documented.
 */
async function apiDocs(app: FastifyInstance) {
  // Every route declares its input with the contract's zod schemas; they validate it and document the API.
  app.setValidatorCompiler(validatorCompiler);
  // The few routes that declare their answers (open-with-code) are serialised through the same zod schemas.
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'GiftLens API',
        version: '1',
        description:
          'Every call of the GiftLens server. Failures answer `{ success: false, error, code }` where `error` is the text a user sees (a bad field of the merchant API also names it in `field`). Sender calls need the `gl_sender` session cookie (from verify-email); recipient calls the `gl_recipient` cookie or a reveal grant; the merchant API (`/api/merchant/v1`) an API key as `Authorization: Bearer gl_live_…` (401 without a valid one, 429 with Retry-After over its rate limit); the walk-through is docs/merchant-api.md.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A merchant API key (gl_live_…), made by GiftLens staff' } } },
    },
    transform: apiOnly,
  });
  // Its own static CSP would replace ours (and block its inline styles): the app's policy covers it.
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PATH });
}

export const apiDocsPlugin = fp(apiDocs, { name: 'api-docs' });
