// The API version header (spec part 9), without zod: the sandbox reads it on every request,
// including the GETs that never load the request schemas.

/** Parse a version header: "3.0.0" → 3; undefined for anything not 1.x.x/2.x.x/3.x.x (spec part 9). */
export function apiMajor(version: string): 1 | 2 | 3 | undefined {
  const m = /^([123])\.\d+\.\d+$/.exec(version.trim());
  return m ? (Number(m[1]) as 1 | 2 | 3) : undefined;
}
