// A stand-in for what CloudFront's JavaScript runtime 2.0 gives a function with a KeyValueStore
// associated: the `cloudfront` module's `kvs()` handle, whose `get` resolves to the value of a key
// the store holds and rejects for any other (as the runtime's does), and nothing global but the
// language. The function is the build's file as it is, but for its first line, the module import,
// which a classic script cannot parse: that line must be exactly the import the runtime documents.
import vm from 'node:vm';
import { KVS_IMPORT } from '../../src/url-resolution/cloudfront-functions.ts';

export interface Value { value: string; multiValue?: Array<{ value: string }> }
export interface CfRequest { method?: string; uri: string; querystring?: Record<string, Value>; headers: Record<string, Value>; cookies?: Record<string, Value> }
export interface CfResponse { statusCode: number; statusDescription?: string; headers?: Record<string, Value> }
export type Handler = (event: unknown) => Promise<CfRequest | CfResponse>;

/** The store as the function sees it; `reads` counts the gets (to show what a request costs). */
export interface StandInStore { entries: Map<string, string>; reads: number }

export function standInStore(entries: Iterable<[string, string]> = []): StandInStore {
  return { entries: new Map(entries), reads: 0 };
}

export function loadFunction(code: string, file: string, store: StandInStore): Handler {
  const [first, ...rest] = code.split('\n');
  if (first !== KVS_IMPORT) throw new Error(`${file} does not begin with ${KVS_IMPORT}`);
  const cf = {
    kvs: () => ({
      get: async (key: string) => {
        store.reads += 1;
        const value = store.entries.get(key);
        if (value === undefined) throw new Error(`key ${key} not found`);
        return value;
      },
    }),
  };
  const context = vm.createContext({ cf });
  new vm.Script(rest.join('\n'), { filename: file }).runInContext(context);
  const handler = (context as { handler?: unknown }).handler;
  if (typeof handler !== 'function') throw new Error(`${file} defines no handler function`);
  return handler as Handler;
}
