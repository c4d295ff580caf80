import { seal, unseal, readStoreFile, writeStoreFile, decodeStoreKey, StoreOpenError } from './store-file.js';
import { problem } from './problem.js';

// The secret and variable records and the one file they live in (SPEC §15 "Store file").

export type Param = string | { type: string; value: unknown };
export interface EntryGrant { id: string; principal: string; verbs: string[] }

export interface Entry {
  name: string;
  type: string;
  provider: string;
  scope: string[];
  params: Record<string, Param>;
  redact_keys: string[];
  comment: string | null;
  owner: string;
  created_at: string;
  updated_at: string;
  version: number;
  grants: EntryGrant[];
}

/** Secrets and variables are two namespaces with the same rules (seed 002 "What the service does" 3). */
export type Namespace = 'secrets' | 'variables';

export interface StoreData {
  secrets: Map<string, Entry>;
  variables: Map<string, Entry>;
}

const FORMAT = 'svc-secrets/1';

export interface StoreOptions {
  path?: string;
  keyEnv?: string;
  env?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
}

export class SecretStore {
  private data: StoreData;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    data: StoreData,
    private readonly path: string | undefined,
    private readonly key: Buffer | undefined,
  ) {
    this.data = data;
  }

  /** Opens the file, or starts empty in memory without `store.path`; a file that does not open throws and is left as it is. */
  static open(opts: StoreOptions): SecretStore {
    const log = opts.log ?? (() => {});
    if (!opts.path) return new SecretStore(emptyData(), undefined, undefined);
    const key = decodeStoreKey((opts.env ?? process.env)[opts.keyEnv ?? ''], opts.keyEnv ?? '(store.key_env)');
    const file = readStoreFile(opts.path);
    if (file === undefined) {
      const store = new SecretStore(emptyData(), opts.path, key);
      // Writing the empty store now makes an unwritable location stop the start, not the first PUT.
      try {
        store.persist(store.data);
      } catch (err) {
        throw new StoreOpenError(`store ${opts.path} cannot be created: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      return store;
    }
    const data = decodeData(unseal(key, file, opts.path), opts.path, log);
    return new SecretStore(data, opts.path, key);
  }

  get(ns: Namespace, name: string): Entry | undefined {
    return this.data[ns].get(name);
  }

  list(ns: Namespace): Entry[] {
    return [...this.data[ns].values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Runs one change at a time on a copy: checks inside `change` see every earlier write, and a write
   * that fails to reach the disk leaves memory as it was and answers 503.
   */
  transact<T>(change: (draft: StoreData) => T): Promise<T> {
    const run = this.queue.then(() => {
      const draft: StoreData = { secrets: structuredClone(this.data.secrets), variables: structuredClone(this.data.variables) };
      const result = change(draft);
      try {
        this.persist(draft);
      } catch {
        throw problem('service_unavailable', 'the store could not be written; the change was not made');
      }
      this.data = draft;
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private persist(data: StoreData): void {
    if (!this.path || !this.key) return;
    const plain = Buffer.from(JSON.stringify({ format: FORMAT, secrets: [...data.secrets.values()], variables: [...data.variables.values()] }));
    writeStoreFile(this.path, seal(this.key, plain));
  }
}

const emptyData = (): StoreData => ({ secrets: new Map(), variables: new Map() });

function decodeData(plain: Buffer, path: string, log: (m: string) => void): StoreData {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new StoreOpenError(`store ${path} decrypts but is not a store document`);
  }
  if (!doc || typeof doc !== 'object' || doc.format !== FORMAT) throw new StoreOpenError(`store ${path} is not in format ${FORMAT}`);
  // Keys other than secrets and variables (delegation rules of the earlier model) are dropped on load (seed 002 Versioning 3).
  const data = emptyData();
  let inert = 0;
  for (const ns of ['secrets', 'variables'] as const) {
    const list = doc[ns] ?? [];
    if (!Array.isArray(list)) throw new StoreOpenError(`store ${path}: ${ns} is not a list`);
    for (const raw of list) {
      const e = checkEntry(raw);
      if (!e) throw new StoreOpenError(`store ${path}: a record in ${ns} is malformed`);
      inert += e.grants.filter((g) => !grantGivesUse(g)).length;
      data[ns].set(e.name, e);
    }
  }
  if (inert > 0) {
    log(`store: ${inert} stored grant(s) give nothing (a subject: or client: principal, or verbs other than ["use"]); re-grant use to a role or group`);
  }
  return data;
}

/** Only `use` to a role or group gives anything (seed 002 Authentication 3). */
export function grantGivesUse(g: EntryGrant): boolean {
  return /^(role|group):./s.test(g.principal) && g.verbs.length === 1 && g.verbs[0] === 'use';
}

function checkEntry(raw: unknown): Entry | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown): v is string => typeof v === 'string';
  const strs = (v: unknown): v is string[] => Array.isArray(v) && v.every(str);
  if (!str(r.name) || !str(r.type) || !str(r.provider) || !strs(r.scope) || !strs(r.redact_keys)) return undefined;
  if (!r.params || typeof r.params !== 'object' || Array.isArray(r.params)) return undefined;
  if (!str(r.owner) || !str(r.created_at) || !str(r.updated_at) || !Number.isInteger(r.version)) return undefined;
  const grants = Array.isArray(r.grants) ? r.grants : [];
  if (!grants.every((g) => g && str(g.id) && str(g.principal) && strs(g.verbs))) return undefined;
  return {
    name: r.name, type: r.type, provider: r.provider, scope: r.scope, params: r.params as Record<string, Param>,
    redact_keys: r.redact_keys, comment: str(r.comment) ? r.comment : null, owner: r.owner,
    created_at: r.created_at, updated_at: r.updated_at, version: r.version as number,
    grants: grants.map((g: EntryGrant) => ({ id: g.id, principal: g.principal, verbs: g.verbs })),
  };
}
