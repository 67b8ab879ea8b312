/** The shapes of a satori SVG: each <path>'s `d`, and the box its points span (control points included, so never smaller than the shape). */
export interface Shape { d: string; box: { left: number; top: number; right: number; bottom: number } }

/** Text drawn as paths: satori writes one filled path per run of text, with absolute M/L/Q/C/Z commands. */
export function glyphPathsOf(svg: string): Shape[] {
  return [...svg.matchAll(/<path fill="#[0-9a-f]{6}" d="([^"]+)"\/>/g)].map((m) => {
    const numbers = (m[1]!.match(/-?\d*\.?\d+(?:e-?\d+)?/g) ?? []).map(Number);
    const xs = numbers.filter((_, i) => i % 2 === 0), ys = numbers.filter((_, i) => i % 2 === 1);
    return { d: m[1]!, box: { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) } };
  });
}

/** The box around several shapes. */
export function boxOf(shapes: Shape[]): Shape['box'] {
  return {
    left: Math.min(...shapes.map((s) => s.box.left)), top: Math.min(...shapes.map((s) => s.box.top)),
    right: Math.max(...shapes.map((s) => s.box.right)), bottom: Math.max(...shapes.map((s) => s.box.bottom)),
  };
}
