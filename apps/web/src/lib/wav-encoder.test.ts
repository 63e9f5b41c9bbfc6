import { describe, expect, it } from 'vitest';
import { encodeWav } from './wav-encoder.ts';

describe('encodeWav', () => {
  it('writes a 16-bit mono PCM RIFF header and clamps samples', async () => {
    const blob = encodeWav([new Float32Array([0, 1, -1]), new Float32Array([2, -0.5])], 48000);
    expect(blob.type).toBe('audio/wav');
    const view = new DataView(await blob.arrayBuffer());
    const ascii = (o: number) => String.fromCharCode(...new Uint8Array(view.buffer, o, 4));
    expect(view.byteLength).toBe(44 + 5 * 2);
    expect(ascii(0)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 10);
    expect(ascii(8)).toBe('WAVE');
    expect(ascii(12)).toBe('fmt ');
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(48000);
    expect(view.getUint32(28, true)).toBe(96000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(ascii(36)).toBe('data');
    expect(view.getUint32(40, true)).toBe(10);
    const samples = [0, 1, 2, 3, 4].map((i) => view.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 32767, -16384]);
  });
});
