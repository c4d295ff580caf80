// DB_MAX_IDLE_CONNS for a pg.Pool (which has no such option, only an idle timeout): a connection
// released while no one waits and the pool already keeps that many idle is closed instead of kept,
// as Go's SetMaxIdleConns does. Every checkout goes through `connect` (pool.query too), so the
// pool's own method is wrapped once, for its promise and callback forms.
import type pg from 'pg';

type Done = (release?: Error | boolean) => void;
type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

export function limitIdle(pool: pg.Pool, maxIdle: number): void {
  if (maxIdle <= 0) return;
  const connect = pool.connect.bind(pool) as unknown as (cb: Callback) => void;
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    const release = client.release.bind(client) as Done;
    client.release = ((err?: Error | boolean) => release(err || (pool.waitingCount === 0 && pool.idleCount >= maxIdle) || undefined)) as pg.PoolClient['release'];
    return client;
  };
  (pool as unknown as { connect: (cb?: Callback) => unknown }).connect = (cb?: Callback) => {
    if (cb) return connect((err, client, done) => (err || !client ? cb(err, client, done) : cb(undefined, wrap(client), (e) => client.release(e))));
    return new Promise<pg.PoolClient>((resolve, reject) => connect((err, client) => (err || !client ? reject(err) : resolve(wrap(client)))));
  };
}
