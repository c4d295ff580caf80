#!/usr/bin/env node
// `npm run dev`: tsc in watch mode, and the server restarted after every compilation without
// errors and after every change under CATALOGS_DIR (catalogs are read at start). A compilation
// with errors keeps the running server. Arguments go to the server (`npm run dev -- --config x.yaml`).
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Development: a source that fails to load is reported and the server keeps running (STRICT_SOURCES).
const env = { ...process.env, LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty', NODE_ENV: process.env.NODE_ENV ?? 'development' };
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let server = null;
let stopping = false;

function say(msg) {
  console.log(`dev: ${msg}`);
}

function stopServer() {
  const s = server;
  server = null;
  if (!s || s.exitCode !== null || s.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => s.kill('SIGKILL'), 10_000);
    s.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    s.kill('SIGTERM');
  });
}

// Restarts are serialized: a burst of changes gives one stop and one start after it.
let queue = Promise.resolve();
function restart(why) {
  queue = queue.then(async () => {
    if (stopping) return;
    await stopServer();
    say(`${why}: starting the server`);
    server = spawn(process.execPath, ['dist/src/main.js', ...process.argv.slice(2)], { cwd: repo, env, stdio: 'inherit' });
  });
}

const tsc = spawn(process.execPath, [tscBin, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'], {
  cwd: repo,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
createInterface({ input: tsc.stdout }).on('line', (line) => {
  console.log(line);
  const m = /Found (\d+) errors?\. Watching for file changes/.exec(line);
  if (!m) return;
  if (m[1] === '0') restart('compiled');
  else say('compilation failed: the running server (if any) stays');
});
tsc.on('exit', (code) => {
  if (!stopping) {
    say(`tsc exited (${code}); stopping`);
    void shutdown(1);
  }
});

let timer = null;
const catalogs = resolve(repo, process.env.CATALOGS_DIR ?? 'catalogs');
try {
  watch(catalogs, { recursive: true }, (_event, file) => {
    clearTimeout(timer);
    timer = setTimeout(() => restart(`catalog changed (${file})`), 200);
  });
} catch (e) {
  say(`not watching ${catalogs}: ${e.message}`);
}

async function shutdown(code) {
  stopping = true;
  clearTimeout(timer);
  tsc.kill('SIGTERM');
  await queue;
  await stopServer();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
