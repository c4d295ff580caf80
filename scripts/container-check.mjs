#!/usr/bin/env node
// `npm run container:check` (root only): runs the Dockerfile's query-service image as far as this
// machine allows without a Docker daemon (docs/operations.md "Container"). Each stage gets a fresh
// root directory holding only what its COPY lines bring in, and its RUN lines run there under
// chroot (the machine's /usr, so its Node, stands in for the base image's). The final stage's CMD
// then runs as its USER; the check waits for its HEALTHCHECK to pass, sends a query, stops it with
// SIGTERM and expects exit code 0. The instructions are read from the Dockerfile itself, so the
// check follows it; an instruction it does not know stops it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'query-service';
const keep = process.argv.includes('--keep');

function fail(msg) {
  console.error(`container-check: ${msg}`);
  process.exit(1);
}
if (process.getuid?.() !== 0) fail('needs root (chroot and mounts)');

// ---- the Dockerfile, as stages of instructions (continuation lines joined)
const lines = readFileSync(join(repo, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const stages = [];
for (const line of lines) {
  const [, op, rest] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
  if (op.toUpperCase() === 'FROM') {
    const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
    stages.push({ name: name ?? String(stages.length), image, steps: [] });
  } else stages.at(-1)?.steps.push({ op: op.toUpperCase(), rest });
}
const byName = new Map(stages.map((s) => [s.name, s]));
if (!byName.has(target)) fail(`no stage "${target}" in the Dockerfile`);

const ignored = new Set(existsSync(join(repo, '.dockerignore')) ? readFileSync(join(repo, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean) : []);
const work = mkdtempSync(join(tmpdir(), 'svc-container-'));
console.log(`container-check: stages in ${work}`);

/** A root directory standing for the base image: an /etc with the image's `node` user (uid 1000). */
function newRoot(name) {
  const root = join(work, name);
  for (const d of ['proc', 'dev', 'tmp', 'usr', 'root', 'home/node']) mkdirSync(join(root, d), { recursive: true });
  for (const l of ['bin', 'lib', 'lib64', 'sbin']) execFileSync('ln', ['-s', `usr/${l}`, join(root, l)]);
  cpSync('/etc', join(root, 'etc'), { recursive: true, dereference: false, verbatimSymlinks: true });
  appendFileSync(join(root, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/sh\n');
  appendFileSync(join(root, 'etc/group'), 'node:x:1000:\n');
  execFileSync('chown', ['1000:1000', join(root, 'home/node')]);
  return root;
}

/** A word for sh: single-quoted. */
const q = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;

/** argv of a shell command run inside `root` (own mount namespace: /usr, /dev, /proc, a fresh /tmp). */
function inRoot(root, { cwd, user, env, command }) {
  const mounts = [
    'mount --make-rprivate /',
    `mount --rbind /usr ${q(`${root}/usr`)}`,
    `mount --rbind /dev ${q(`${root}/dev`)}`,
    `mount -t proc proc ${q(`${root}/proc`)}`,
    `mount -t tmpfs tmpfs ${q(`${root}/tmp`)}`,
  ].join(' && ');
  const envs = Object.entries(env).map(([k, v]) => q(`${k}=${v}`)).join(' ');
  const home = user === 'node' ? '/home/node' : '/root';
  // The image's environment only; the command runs through sh as RUN and CMD do.
  const inner = `cd ${q(cwd)} && exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=${home} ${envs} /bin/sh -c ${q(command)}`;
  const chroot = `exec chroot ${user ? `--userspec=${user}:${user}` : ''} ${q(root)} /bin/sh -c ${q(inner)}`;
  return ['unshare', ['--mount', '--fork', 'sh', '-c', `${mounts} && ${chroot}`]];
}

/** `["node", "x.js"]` (exec form: the program itself, as Docker runs it) or `node x.js` (shell form). */
function commandOf(text) {
  const t = text.trim();
  if (!t.startsWith('[')) return t;
  return `exec ${JSON.parse(t).map(q).join(' ')}`;
}

function copyInto(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true, filter: (src) => !ignored.has(posix.relative(repo, src).split('/')[0]) || src === repo });
}

function build(stage) {
  if (stage.root) return stage;
  stage.root = newRoot(stage.name);
  stage.cwd = '/';
  stage.env = {};
  stage.user = undefined;
  for (const { op, rest } of stage.steps) {
    const at = (p) => join(stage.root, posix.resolve(stage.cwd, p));
    if (op === 'WORKDIR') {
      stage.cwd = posix.resolve(stage.cwd, rest);
      mkdirSync(at('.'), { recursive: true });
    } else if (op === 'ENV') {
      for (const [, k, v] of rest.matchAll(/(\w+)=("[^"]*"|\S*)/g)) stage.env[k] = v.replace(/^"|"$/g, '');
    } else if (op === 'COPY') {
      const from = /^--from=(\S+)\s+/.exec(rest);
      const args = rest.replace(/^--\S+\s+/, '').split(/\s+/);
      const dest = args.pop();
      const source = from ? build(byName.get(from[1]) ?? fail(`COPY --from=${from[1]}: no such stage`)) : undefined;
      for (const src of args) {
        const path = source ? join(source.root, src) : join(repo, src);
        if (!existsSync(path)) fail(`COPY ${src}: not found`);
        const into = dest.endsWith('/') || args.length > 1 ? join(at(dest), basename(src)) : at(dest);
        copyInto(path, into);
      }
    } else if (op === 'RUN') {
      console.log(`container-check: [${stage.name}] RUN ${rest}`);
      const [cmd, argv] = inRoot(stage.root, { cwd: stage.cwd, user: stage.user, env: stage.env, command: rest });
      const r = spawnSync(cmd, argv, { stdio: 'inherit' });
      if (r.status !== 0) fail(`[${stage.name}] RUN ${rest}: exit ${r.status}`);
    } else if (op === 'USER') stage.user = rest;
    else if (op === 'CMD' || op === 'ENTRYPOINT') stage[op.toLowerCase()] = commandOf(rest);
    else if (op === 'HEALTHCHECK') stage.healthcheck = commandOf(rest.replace(/^(--\S+\s+)*CMD\s+/, ''));
    else if (['EXPOSE', 'VOLUME', 'STOPSIGNAL', 'LABEL', 'ARG'].includes(op)) stage[op.toLowerCase()] = rest;
    else fail(`instruction ${op} is not known to this check`);
  }
  return stage;
}

function freePort() {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

const image = build(byName.get(target));
if (!image.user || image.user === 'root') fail('the image runs as root');
if (!image.healthcheck) fail('the image has no HEALTHCHECK');
const port = await freePort();
// As `docker run -e BIND=127.0.0.1:<port> -e EXTENSIONS=...` would (this machine's port 15000 may be
// taken): the example extension module shows that the image serves extensions.
const env = { ...image.env, BIND: `127.0.0.1:${port}`, EXTENSIONS: 'examples/reports/reports.module.ts' };
const command = image.entrypoint ? `${image.entrypoint} ${image.cmd.replace(/^exec /, '')}` : image.cmd;
console.log(`container-check: starting "${command}" as ${image.user} on port ${port}`);
const [cmd, argv] = inRoot(image.root, { cwd: image.cwd, user: image.user, env, command });
const server = spawn(cmd, argv, { stdio: ['ignore', 'inherit', 'inherit'] });
const exited = new Promise((done) => server.on('exit', (code, signal) => done(code ?? signal)));

let healthy = false;
for (let i = 0; i < 120 && server.exitCode === null; i++) {
  const [hc, hargv] = inRoot(image.root, { cwd: image.cwd, user: image.user, env, command: image.healthcheck });
  if (spawnSync(hc, hargv, { stdio: 'ignore' }).status === 0) {
    healthy = true;
    break;
  }
  await new Promise((r) => setTimeout(r, 1000));
}
if (!healthy) fail('HEALTHCHECK never passed');
console.log('container-check: HEALTHCHECK passes');

const answer = await (await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ shop_tags(limit: 2) { id name } report_customers_by_country { country customers } }"}' })).json();
if (!answer.data?.shop_tags?.length) fail(`the query did not answer: ${JSON.stringify(answer)}`);
if (!answer.data?.report_customers_by_country?.length) fail(`the extension module's field did not answer: ${JSON.stringify(answer)}`);
console.log(`container-check: /query answers ${JSON.stringify(answer.data)}`);

// The server: the process whose root directory is the image's (unshare execs into it).
const inside = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).find((p) => {
  try {
    const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
    return readlinkSync(`/proc/${p}/root`) === image.root && basename(argv[0]) === 'node' && argv.includes('dist/src/main.js');
  } catch {
    return false;
  }
});
if (!inside) fail('the server process was not found');
const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${inside}/status`, 'utf8'))?.[1];
if (uid !== '1000') fail(`the server runs as uid "${uid}", not the image's user`);
console.log(`container-check: the server runs as uid ${uid} (${image.user})`);

// What `docker stop` does first.
process.kill(Number(inside), 'SIGTERM');
const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('no exit within 30 s'), 30_000))]);
if (code !== 0) fail(`after SIGTERM: ${code}`);
console.log('container-check: SIGTERM: stopped with exit code 0');
if (!keep) rmSync(work, { recursive: true, force: true });
console.log('container-check: ok');
