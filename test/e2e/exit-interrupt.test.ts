// process.exit with a DuckDB statement running (SIGTERM at SHUTDOWN_TIMEOUT, a second Ctrl-C):
// node-api runs statements on libuv's thread pool, which process.exit waits for, so a statement
// nothing bounds kept an exiting server alive with its memory (issue 31: "did not stop on
// SIGTERM"). The engine interrupts its running statements from an 'exit' listener. Against the
// compiled engine (dist/, built by `npm test`) in a process of its own.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'src', 'sources', 'duckdb', 'engine.js')).href;

const CHILD = `
const { DuckDbEngine } = await import(${JSON.stringify(ENGINE)});
const engine = await DuckDbEngine.create(':memory:', 2, 0);
// No QUERY_TIMEOUT (0) and nothing reads the rows: only an interrupt ends this statement.
void engine.exec('SELECT sum(i * 2) FROM range(4000000000000) t(i)').catch(() => {});
setTimeout(() => { console.log('exiting'); process.exit(3); }, 500);
`;

describe('an exiting process with a DuckDB statement running', () => {
  it('interrupts the statement and exits with its code', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    // The test's timeout is the bound; a child still alive then is killed so nothing leaks.
    const guard = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | string>((done) => child.on('exit', (c, s) => done(c ?? s ?? 'none')));
    clearTimeout(guard);
    expect(out).toContain('exiting');
    expect(code).toBe(3);
  }, 60_000);
});
