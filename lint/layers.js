// The layers the linter keeps (see docs/architecture.md, "Layers the linter keeps"). Each rule below is a config
// object for eslint.config.js; lint/layers.test.ts proves each one fails on a deliberate violation.
//
// - Imports: `import-x/no-restricted-paths` resolves every relative import to its file, so a rule is about folders,
//   not about how the import was spelled.
// - Tables: each table has one owning module (TABLE_OWNERS); any other server file naming it in a query (a Kysely
//   table or column reference such as 'gifts', 'gifts as g', 'gifts.id', or a word in a `sql` template) fails.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import importX from 'eslint-plugin-import-x';

const REPOSITORY = path.resolve(import.meta.dirname, '..');
const SERVER = 'apps/server/src';
const WEB = 'apps/web/src';

/** Every table of the schema and the one folder (under apps/server/src) whose code may query it. */
export const TABLE_OWNERS = {
  verification_codes: 'modules/auth',
  code_resends: 'modules/auth',
  sessions: 'modules/auth',
  senders: 'modules/sender-auth',
  recipients: 'modules/recipient-auth',
  gifts: 'modules/gifts',
  gift_photos: 'modules/gifts',
  upload_intents: 'modules/uploads',
  orders: 'modules/payments',
  webhook_events: 'modules/payments',
  scheduled_messages: 'modules/deliveries',
  push_subscriptions: 'modules/push',
  reactions: 'modules/reactions',
  reveal_grants: 'modules/reveal-grants',
  scan_failures: 'modules/scans',
  group_gifts: 'modules/group-gifts',
  group_invitations: 'modules/group-gifts',
  contributions: 'modules/group-gifts',
  jobs: 'jobs',
  scan_events: 'modules/scans',
  staff_members: 'modules/staff',
  staff_audit: 'modules/staff',
  merchants: 'modules/merchants',
  merchant_api_keys: 'modules/merchants',
  merchant_gifts: 'modules/merchants',
  merchant_webhooks: 'modules/merchants',
  merchant_webhook_attempts: 'modules/merchants',
};

const folders = (root, dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** Zones for `import-x/no-restricted-paths`, paths relative to the repository root. */
export function importZones(serverModules, webFeatures) {
  const zones = [];
  for (const name of serverModules) {
    const others = serverModules.filter((other) => other !== name);
    if (others.length === 0) continue;
    zones.push({
      target: `./${SERVER}/modules/${name}/**/*`,
      from: others.flatMap((other) => [
        `./${SERVER}/modules/${other}/*.routes.ts`,
        `./${SERVER}/modules/${other}/*.plugin.ts`,
      ]),
      message: 'A module uses another module through its service or repository, never through its routes or plugin.',
    });
  }
  zones.push(
    {
      target: `./${SERVER}/lib`,
      from: [`./${SERVER}/modules`, `./${SERVER}/adapters`, `./${SERVER}/jobs`],
      message: 'src/lib is the bottom layer: it imports no module, adapter or job code.',
    },
    {
      target: `./${SERVER}/adapters`,
      from: [`./${SERVER}/modules`, `./${SERVER}/jobs`],
      message: 'An adapter wraps one outside system; it imports no module or job code.',
    },
    {
      target: `./${SERVER}/config.ts`,
      from: [`./${SERVER}/modules`, `./${SERVER}/adapters`, `./${SERVER}/jobs`],
      message: 'config.ts reads the environment; what it describes is typed here, not imported from above.',
    },
  );
  for (const name of webFeatures) {
    zones.push({
      target: `./${WEB}/features/${name}`,
      from: `./${WEB}/features`,
      except: [`./${name}`],
      message: 'A feature never imports another feature: move what both need below them (components, lib, api), or compose them in app/.',
    });
  }
  zones.push(
    {
      target: `./${WEB}/features`,
      from: `./${WEB}/app`,
      message: 'app/ composes the features; a feature never imports from it (the route map lives in src/config).',
    },
    {
      target: [
        `./${WEB}/lib`,
        `./${WEB}/api`,
        `./${WEB}/components`,
        `./${WEB}/camera`,
        `./${WEB}/config`,
        `./${WEB}/deliveries`,
      ],
      from: [`./${WEB}/features`, `./${WEB}/app`],
      message: 'Shared code sits below the features and app/: it imports neither.',
    },
  );
  return zones;
}

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The Kysely calls that name a table: FROM, JOIN, UPDATE, INSERT, DELETE, MERGE, and `sql.table`. */
const TABLE_CALLS = '/^(selectFrom|updateTable|insertInto|replaceInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|using|table)$/';

/**
 * `no-restricted-syntax` selectors that find a table named in a query: as a Kysely call's table ('gifts',
 * 'gifts as g', alone or in a list) or as a word in a `sql` template. A column of the outer query named in a
 * correlated condition ('gifts.id' in a whereRef) is not a query on that table and passes.
 */
export function tableSelectors(table, owner) {
  const message = `Only ${owner} queries the ${table} table: call its repository or service instead.`;
  const word = escape(table);
  const name = `Literal[value=/^${word}(\\s+as\\s.*)?$/]`;
  const call = `CallExpression[callee.property.name=${TABLE_CALLS}]`;
  return [
    { selector: `${call} > ${name}`, message },
    { selector: `${call} > ArrayExpression > ${name}`, message },
    { selector: `TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=/\\b${word}\\b/]`, message },
    {
      selector: `TaggedTemplateExpression[tag.object.name='sql'] TemplateElement[value.raw=/\\b${word}\\b/]`,
      message,
    },
  ];
}

/** One config object per server folder that may hold queries: the tables it does not own are named nowhere in it. */
export function tableOwnerConfigs(serverModules) {
  const owners = [...serverModules.map((name) => `modules/${name}`), 'jobs', 'lib', 'adapters'];
  return owners.map((folder) => ({
    files: [`${SERVER}/${folder}/**/*.ts`],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...Object.entries(TABLE_OWNERS)
          .filter(([, owner]) => owner !== folder)
          .flatMap(([table, owner]) => tableSelectors(table, owner)),
      ],
    },
  }));
}

/**
 * The layer rules as flat-config objects, for the repository at `root` (its module and feature folders).
 * @returns {import('eslint').Linter.Config[]}
 */
export function layerConfigs(root = REPOSITORY) {
  const serverModules = folders(root, `${SERVER}/modules`);
  const webFeatures = folders(root, `${WEB}/features`);
  return [
    {
      files: ['apps/**/*.{ts,tsx}'],
      plugins: { 'import-x': importX },
      settings: { 'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
      rules: { 'import-x/no-restricted-paths': ['error', { zones: importZones(serverModules, webFeatures), basePath: root }] },
    },
    ...tableOwnerConfigs(serverModules),
  ];
}
