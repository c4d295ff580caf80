// A V8 .cpuprofile's self time grouped by package: `node_modules/<pkg>` (scoped names kept whole),
// `svc` for our own dist/ code, `node` for node: internals, and V8's own entries ((garbage collector),
// (program), (idle)). Also runnable alone: `node bench/lib/cpu-profile.mjs file.cpuprofile [top]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** svc's own code split by layer: `svc/<folder of src>` (`svc/pipeline/fast-path`, `svc/http`, ...). */
function svcLayer(url) {
  const parts = url.slice(url.indexOf('/dist/src/') + '/dist/src/'.length).split('/');
  if (parts.length === 1) return 'svc';
  return `svc/${parts.length > 2 && ['pipeline', 'executor', 'sql'].includes(parts[0]) ? `${parts[0]}/${parts[1]}` : parts[0]}`;
}

function packageOf(url, functionName, layers) {
  if (!url) return functionName.startsWith('(') ? functionName : layers ? `(native) ${functionName}` : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return layers ? `node:${url.slice(5).split('/')[0]}` : 'node';
  if (url.includes('/dist/src/') && layers) return svcLayer(url);
  if (url.includes('/dist/')) return 'svc';
  return url;
}

/**
 * Self milliseconds per package and per function (top entries), and the total. `window` keeps only
 * the samples taken between two CLOCK_MONOTONIC readings in microseconds (process.hrtime of any
 * process on the machine: V8 stamps samples with the same clock), e.g. the measured load without
 * the server's start-up.
 */
export function byPackage(file, window, { layers = false } = {}) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (window && (t < window.from || t > window.to)) continue;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  const packages = new Map();
  const functions = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const n = nodes.get(id);
    const pkg = packageOf(n.callFrame.url, n.callFrame.functionName, layers);
    if (pkg === '(idle)') continue;
    total += ms;
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const fn = `${pkg} ${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { total, packages: sorted(packages), functions: sorted(functions) };
}

/** `requests`: also the microseconds per request of each entry (the per-layer table of issue 30). */
export function printByPackage({ total, packages, functions }, top = 25, requests = 0) {
  const pct = (ms) => `${((100 * ms) / total).toFixed(1).padStart(5)}%${requests ? ` ${((ms * 1000) / requests).toFixed(1).padStart(6)} us/req` : ''}`;
  console.log(`busy ${total.toFixed(0)} ms (idle excluded)${requests ? `, ${requests} requests, ${((total * 1000) / requests).toFixed(0)} us/req` : ''}; self time by package:`);
  for (const [pkg, ms] of packages) if (ms / total >= 0.002) console.log(`  ${pct(ms)}  ${pkg}`);
  console.log(`top ${top} functions:`);
  for (const [fn, ms] of functions.slice(0, top)) console.log(`  ${pct(ms)}  ${fn}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printByPackage(byPackage(process.argv[2]), Number(process.argv[3] ?? 25));
