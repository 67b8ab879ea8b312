import { createHash } from 'node:crypto';

/** The SHA-256 of `parts`, each ended by a NUL so that ('ab', 'c') and ('a', 'bc') differ: the build's one key for "made from exactly this". */
export const hashOf = (...parts: Array<string | Uint8Array>) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex');
};
