/** WebAssembly text -> binary (SIMD enabled). */
export function assembleWat(text: string): Promise<Uint8Array>;
