const nq = 500, nr = 1000;
const q = new Uint32Array(nq * 8).map(() => (Math.random() * 2 ** 32) >>> 0);
const r = new Uint32Array(nr * 8).map(() => (Math.random() * 2 ** 32) >>> 0);
function popcnt(v: number): number { v = v - ((v >>> 1) & 0x55555555); v = (v & 0x33333333) + ((v >>> 2) & 0x33333333); return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; }
const LUT = new Uint8Array(65536); for (let i = 1; i < 65536; i++) LUT[i] = (i & 1) + LUT[i >>> 1]!;
function a() { let s = 0; for (let i = 0; i < nq; i++) { const o = i * 8; const a0 = q[o]!, a1 = q[o+1]!, a2 = q[o+2]!, a3 = q[o+3]!, a4 = q[o+4]!, a5 = q[o+5]!, a6 = q[o+6]!, a7 = q[o+7]!; let d1 = 999;
  for (let p = 0; p < nr * 8; p += 8) { const d = popcnt(a0 ^ r[p]!) + popcnt(a1 ^ r[p+1]!) + popcnt(a2 ^ r[p+2]!) + popcnt(a3 ^ r[p+3]!) + popcnt(a4 ^ r[p+4]!) + popcnt(a5 ^ r[p+5]!) + popcnt(a6 ^ r[p+6]!) + popcnt(a7 ^ r[p+7]!); if (d < d1) d1 = d; } s += d1; } return s; }
function l(x: number) { return LUT[x & 0xffff]! + LUT[x >>> 16]!; }
function b() { let s = 0; for (let i = 0; i < nq; i++) { const o = i * 8; const a0 = q[o]!, a1 = q[o+1]!, a2 = q[o+2]!, a3 = q[o+3]!, a4 = q[o+4]!, a5 = q[o+5]!, a6 = q[o+6]!, a7 = q[o+7]!; let d1 = 999;
  for (let p = 0; p < nr * 8; p += 8) { const d = l(a0 ^ r[p]!) + l(a1 ^ r[p+1]!) + l(a2 ^ r[p+2]!) + l(a3 ^ r[p+3]!) + l(a4 ^ r[p+4]!) + l(a5 ^ r[p+5]!) + l(a6 ^ r[p+6]!) + l(a7 ^ r[p+7]!); if (d < d1) d1 = d; } s += d1; } return s; }
// combined popcount: sum pairs before final multiply (SWAR across two words)
function c() { let s = 0; for (let i = 0; i < nq; i++) { const o = i * 8; const a0 = q[o]!, a1 = q[o+1]!, a2 = q[o+2]!, a3 = q[o+3]!, a4 = q[o+4]!, a5 = q[o+5]!, a6 = q[o+6]!, a7 = q[o+7]!; let d1 = 999;
  for (let p = 0; p < nr * 8; p += 8) {
    let acc = 0;
    let x = a0 ^ r[p]!, y = a1 ^ r[p+1]!, z = a2 ^ r[p+2]!;
    x = x - ((x >>> 1) & 0x55555555); y = y - ((y >>> 1) & 0x55555555); z = z - ((z >>> 1) & 0x55555555);
    let t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333) + (z & 0x33333333) + ((z >>> 2) & 0x33333333);
    acc = (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
    x = a3 ^ r[p+3]!; y = a4 ^ r[p+4]!; z = a5 ^ r[p+5]!;
    x = x - ((x >>> 1) & 0x55555555); y = y - ((y >>> 1) & 0x55555555); z = z - ((z >>> 1) & 0x55555555);
    t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333) + (z & 0x33333333) + ((z >>> 2) & 0x33333333);
    acc += (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
    x = a6 ^ r[p+6]!; y = a7 ^ r[p+7]!;
    x = x - ((x >>> 1) & 0x55555555); y = y - ((y >>> 1) & 0x55555555);
    t = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333);
    acc += (t & 0x0f0f0f0f) + ((t >>> 4) & 0x0f0f0f0f);
    const d = (Math.imul(acc, 0x01010101) >>> 24) ; // bytes each <= 64+... careful overflow
    if (d < d1) d1 = d; } s += d1; } return s; }
for (const [n, f] of [['arith', a], ['lut16', b], ['swar', c]] as const) { f(); const t = performance.now(); for (let k = 0; k < 5; k++) f(); console.log(n, ((performance.now() - t) / 5).toFixed(1), 'ms', f()); }
