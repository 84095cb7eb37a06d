import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAssetsIfChanged } from '../../scripts/build-assets.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(REPOSITORY, 'node_modules/typescript/bin/tsc');

/** A scratch directory with the given files, removed after the suite. */
function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'incremental-build-'));
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  return root;
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function modified(path: string): number {
  return statSync(path).mtimeMs;
}

/** Sets a file's times to a moment in the past, so that any later write would show. */
function age(path: string): void {
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(path, past, past);
}

describe('incremental build', () => {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('npm start builds first, and the build compiles with tsc -b (incremental)', () => {
    const scripts = JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')).scripts;
    assert.equal(scripts.prestart, 'npm run build');
    assert.equal(scripts.build, `tsc -b tsconfig.build.json && ${scripts['build:assets']}`);
    assert.equal(scripts['build:assets'], 'tsx scripts/build-assets.ts');
  });

  it('compiles with the real tsconfig.build.json only when a source changed', function () {
    this.timeout(120_000);
    const root = scratch({
      'package.json': '{ "type": "module" }\n',
      'tsconfig.json': readFileSync(join(REPOSITORY, 'tsconfig.json'), 'utf8'),
      'tsconfig.build.json': readFileSync(join(REPOSITORY, 'tsconfig.build.json'), 'utf8'),
      'src/greeting.ts': "export const greeting = 'hello';\n",
      'src/main.ts': "import { greeting } from './greeting.js';\nexport const said = greeting;\n",
      'generated/version.ts': "export const version = '1';\n",
    });
    roots.push(root);
    const build = () =>
      execFileSync(process.execPath, [TSC, '-b', 'tsconfig.build.json', '--verbose'], {
        cwd: root,
        encoding: 'utf8',
      });
    const mainJs = join(root, 'dist/src/main.js');
    const greetingJs = join(root, 'dist/src/greeting.js');

    assert.match(build(), /Building project/);
    assert.match(readFileSync(mainJs, 'utf8'), /said = greeting/);
    assert.ok(statSync(join(root, 'dist/generated/version.js')).isFile());
    age(mainJs);
    age(greetingJs);
    const before = [modified(mainJs), modified(greetingJs)];

    const second = build();
    assert.match(second, /is up to date/);
    assert.doesNotMatch(second, /Building project/);
    assert.deepEqual([modified(mainJs), modified(greetingJs)], before);

    write(root, 'src/greeting.ts', "export const greeting = 'hello again';\n");
    assert.match(build(), /Building project/);
    assert.match(readFileSync(greetingJs, 'utf8'), /hello again/);
  });

  describe('browser assets', () => {
    let root: string;
    const bundle = () => join(root, 'public/built/explorer.js');

    before(() => {
      root = scratch({
        'client/explorer/main.js': "import './explorer.css';\nconsole.log('first version');\n",
        'client/explorer/explorer.css': 'body { margin: 0; }\n',
        'client/room/main.ts': "const room: string = 'room';\nconsole.log(room);\n",
        'package-lock.json': '{ "lockfileVersion": 3 }\n',
      });
      roots.push(root);
    });

    it('builds when nothing was built, then finds the same inputs up to date', async function () {
      this.timeout(60_000);
      assert.equal(await buildAssetsIfChanged(root), 'built');
      assert.match(readFileSync(bundle(), 'utf8'), /first version/);
      assert.ok(statSync(join(root, 'public/built/redoc.standalone.js')).size > 0);
      age(bundle());
      const before = modified(bundle());

      assert.equal(await buildAssetsIfChanged(root), 'up to date');
      assert.equal(modified(bundle()), before);
    });

    it('ignores a new modification time without a new content (a checkout, a fresh clone)', async () => {
      const now = new Date();
      utimesSync(join(root, 'client/explorer/main.js'), now, now);
      assert.equal(await buildAssetsIfChanged(root), 'up to date');
    });

    it('rebuilds when a client source changes', async function () {
      this.timeout(60_000);
      write(root, 'client/explorer/main.js', "import './explorer.css';\nconsole.log('second');\n");
      assert.equal(await buildAssetsIfChanged(root), 'built');
      assert.match(readFileSync(bundle(), 'utf8'), /second/);
      assert.equal(await buildAssetsIfChanged(root), 'up to date');
    });

    it('rebuilds when the dependencies change (package-lock.json)', async function () {
      this.timeout(60_000);
      write(root, 'package-lock.json', '{ "lockfileVersion": 3, "name": "changed" }\n');
      assert.equal(await buildAssetsIfChanged(root), 'built');
    });

    it('rebuilds when an output is missing', async function () {
      this.timeout(60_000);
      rmSync(join(root, 'public/built/explorer.css'));
      assert.equal(await buildAssetsIfChanged(root), 'built');
      assert.ok(statSync(join(root, 'public/built/explorer.css')).isFile());
    });

    it('after a failed build, builds again once the source is fixed', async function () {
      this.timeout(60_000);
      write(root, 'client/explorer/main.js', 'console.log(;\n');
      await assert.rejects(buildAssetsIfChanged(root));
      write(root, 'client/explorer/main.js', "import './explorer.css';\nconsole.log('second');\n");
      // The same inputs as the last good build: only the missing stamp says to build again.
      assert.equal(await buildAssetsIfChanged(root), 'built');
      assert.match(readFileSync(bundle(), 'utf8'), /second/);
    });
  });
});
