// The layer rules of lint/layers.js, each shown failing on a deliberate violation (and passing on the allowed
// import beside it), in a small repository laid out like ours in a scratch folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { layerConfigs } from './layers.js';

const FILES = [
  'apps/server/src/modules/gifts/gifts.routes.ts',
  'apps/server/src/modules/gifts/gifts.plugin.ts',
  'apps/server/src/modules/gifts/gifts.repository.ts',
  'apps/server/src/modules/scans/scans.routes.ts',
  'apps/server/src/modules/scans/scans.service.ts',
  'apps/server/src/adapters/recogniser.ts',
  'apps/server/src/jobs/runner.ts',
  'apps/server/src/lib/crypto.ts',
  'apps/server/src/config.ts',
  'apps/web/src/app/router.tsx',
  'apps/web/src/config/paths.ts',
  'apps/web/src/features/scanning/components/scanner.tsx',
  'apps/web/src/features/scanning/components/hint.tsx',
  'apps/web/src/features/gift-message/components/gift-message-page.tsx',
  'apps/web/src/lib/format.ts',
];

let root: string;
let eslint: ESLint;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'giftlens-lint-'));
  for (const file of FILES) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), 'export const x = 1;\n');
  }
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...layerConfigs(root)],
  });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The rules that fired on `code` placed at `file`. */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`${file} did not parse: ${fatal.message}`);
  return messages.map((message) => message.ruleId ?? 'none');
}

describe('import layers (server)', () => {
  test("a module importing another module's routes or plugin fails; its service passes", async () => {
    const file = 'apps/server/src/modules/scans/scans.service.ts';
    expect(await violations(file, "import { x } from '../gifts/gifts.routes.ts';\nexport const y = x;")).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations(file, "import { x } from '../gifts/gifts.plugin.ts';\nexport const y = x;")).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations(file, "import { x } from '../gifts/gifts.repository.ts';\nexport const y = x;")).toEqual([]);
    expect(await violations(file, "import { x } from './scans.routes.ts';\nexport const y = x;")).toEqual([]);
  });

  test('lib importing an adapter, a module or job code fails', async () => {
    const file = 'apps/server/src/lib/scan-photo.ts';
    for (const target of ['../adapters/recogniser.ts', '../modules/gifts/gifts.repository.ts', '../jobs/runner.ts']) {
      expect(await violations(file, `import { x } from '${target}';\nexport const y = x;`)).toEqual([
        'import-x/no-restricted-paths',
      ]);
    }
    expect(await violations(file, "import { x } from './crypto.ts';\nexport const y = x;")).toEqual([]);
  });

  test('an adapter importing job code, and config importing an adapter, fail', async () => {
    expect(
      await violations('apps/server/src/adapters/whatsapp.ts', "import { x } from '../jobs/runner.ts';\nexport const y = x;"),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await violations('apps/server/src/config.ts', "import { x } from './adapters/recogniser.ts';\nexport const y = x;"),
    ).toEqual(['import-x/no-restricted-paths']);
  });
});

describe('import layers (web)', () => {
  test('a feature importing another feature or app/ fails; its own files and config/ pass', async () => {
    const file = 'apps/web/src/features/scanning/components/scanner.tsx';
    expect(
      await violations(file, "import { x } from '../../gift-message/components/gift-message-page.tsx';\nexport const y = x;"),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(await violations(file, "import { x } from '../../../app/router.tsx';\nexport const y = x;")).toEqual([
      'import-x/no-restricted-paths',
    ]);
    expect(await violations(file, "import { x } from './hint.tsx';\nexport const y = x;")).toEqual([]);
    expect(await violations(file, "import { x } from '../../../config/paths.ts';\nexport const y = x;")).toEqual([]);
  });

  test('shared code importing a feature fails', async () => {
    expect(
      await violations(
        'apps/web/src/lib/format.ts',
        "import { x } from '../features/scanning/components/hint.tsx';\nexport const y = x;",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });
});

describe('table owners', () => {
  test("a repository outside the gifts module naming the gifts table fails, in Kysely and in sql``", async () => {
    const file = 'apps/server/src/modules/scans/scans.repository.ts';
    for (const query of [
      "db.selectFrom('gifts').selectAll()",
      "db.selectFrom('gifts as g').selectAll()",
      "db.selectFrom('scan_failures').innerJoin('gifts', 'gifts.id', 'scan_failures.gift_id').selectAll()",
      "db.deleteFrom(['gifts', 'scan_failures'])",
      'sql`DELETE FROM gifts WHERE id = ${1}`',
    ]) {
      expect(await violations(file, `declare const db: any; declare const sql: any;\nexport const q = ${query};`)).toEqual([
        'no-restricted-syntax',
      ]);
    }
  });

  test('the owner may name its tables; a path, a report key or an outer column named like a table passes', async () => {
    expect(
      await violations(
        'apps/server/src/modules/gifts/gifts.repository.ts',
        "declare const db: any;\nexport const q = db.selectFrom('gifts').selectAll();",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'apps/server/src/modules/scans/scans.routes.ts',
        "declare const eb: any;\nexport const route = '/api/gift-sender/gifts'; export const kind = 'gifts_total';\n" +
          "export const report = ['sessions', 'jobs']; export const outer = eb.whereRef('orders.gift_id', '=', 'gifts.id');",
      ),
    ).toEqual([]);
  });
});
