export const PAGE_SIZE = 99;

export interface Load {
  rps: number;
  p50: number;
  p95: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/** `clients` loops calling `once` for `seconds`: requests per second and latency percentiles. */
export async function load(once: () => Promise<void>, clients: number, seconds: number): Promise<Load> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await once();
        times.push(performance.now() - start);
      }
    }),
  );
  return { rps: times.length / seconds, p50: pct(times, 50), p95: pct(times, 95) };
}
