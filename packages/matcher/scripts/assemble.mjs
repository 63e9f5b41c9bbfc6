import createWabt from 'wabt';

/** WebAssembly text -> binary (SIMD enabled), as a Uint8Array. */
export async function assembleWat(text) {
  const wabt = await createWabt();
  const mod = wabt.parseWat('hamming.wat', text, { simd: true });
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({ log: false }).buffer);
  } finally {
    mod.destroy();
  }
}
