import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a service process spent its CPU time: reads the `.cpuprofile` files `npm run bench --
 * --profile <dir>` wrote and prints self time by function and by where the code lives (our
 * source, a package, Node's internals, the engine), largest first.
 *
 *   npx tsx bench/profile-summary.ts <dir> [top]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function profilesIn(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((name) => join(directory, name))
    .filter((path) => path.endsWith('.cpuprofile') && statSync(path).isFile());
}

/** Microseconds of self time per node id. */
function selfTimes(profile: Profile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    times.set(id, (times.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times;
}

function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:')) return url;
  const ours = /\/dist\/(src\/[^/]+)/.exec(url);
  return ours ? ours[1]! : url;
}

function add(totals: Map<string, number>, key: string, micros: number): void {
  totals.set(key, (totals.get(key) ?? 0) + micros);
}

function print(title: string, totals: Map<string, number>, all: number, top: number): void {
  console.log(`\n${title}`);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, micros] of rows) {
    console.log(`${((100 * micros) / all).toFixed(1).padStart(6)} %  ${key}`);
  }
}

const [directory, topText] = process.argv.slice(2);
if (!directory) {
  console.error('usage: npx tsx bench/profile-summary.ts <profile directory> [top]');
  process.exit(2);
}
const top = Number(topText ?? 30);
for (const path of profilesIn(directory)) {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let all = 0;
  for (const [id, micros] of selfTimes(profile)) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    add(byFunction, `${functionName || '(anonymous)'}  ${place}:${lineNumber + 1}`, micros);
    add(byPlace, place, micros);
    all += micros;
  }
  const idle = byPlace.get('(idle)') ?? 0;
  console.log(
    `\n== ${path}: ${(all / 1e6).toFixed(1)} s sampled, ${((100 * idle) / all).toFixed(1)} % idle`,
  );
  print('self time by place', byPlace, all, top);
  print('self time by function', byFunction, all, top);
}
