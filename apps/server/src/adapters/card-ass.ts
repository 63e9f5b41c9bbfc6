import type { CardFace } from '../lib/shipped-fonts.ts';
import { runsOf } from '../lib/shipped-fonts.ts';
import { COMBINED_HEIGHT, COMBINED_WIDTH, type CardLayout } from './combined-recipe.ts';

/**
 * A title or text card of the combined video as an ASS script for libass (issue 40): drawtext shapes no script
 * beyond Latin and draws in one font, so "From प्रिया" came out as boxes. Each run of the (already laid out) text
 * names the shipped face that has its characters (`\fn`), because libass looks for a missing glyph through
 * fontconfig only, never among the fonts of `fontsdir`; libass shapes each run with HarfBuzz (`shaping=complex`).
 */
/**
 * libass sizes a font so that its ascent plus descent is the style's size; drawtext (and layoutCard) mean the em.
 * Noto Sans: 1069 + 293 units to the 1000-unit em, so the em of `fontSize` is this many times larger in ASS.
 */
const ASS_SIZE_PER_EM = 1.362;

const colour = (rgb: string) => `&H00${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}`.toUpperCase();

/**
 * What a contributor typed, made inert for ASS: `{` `}` would open an override block and `\` a tag (`\N`, `\fn`),
 * so they become their full-width forms; line breaks become `\N`.
 */
export function assText(text: string): string {
  return text.replace(/\\/g, '＼').replace(/\{/g, '｛').replace(/\}/g, '｝').replace(/\n/g, '\\N');
}

export function cardAssScript(layout: CardLayout, seconds: number, bold: boolean, faces: readonly CardFace[]): string {
  const body = layout.text
    .split('\n')
    .map((line) => runsOf(line, [...faces]).map((run) => `{\\fn${run.face.family}}${assText(run.text)}`).join(''))
    .join('\\N');
  const end = new Date(Math.round(seconds * 1000)).toISOString().slice(11, 22).replace(/^0/, '');
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${COMBINED_WIDTH}`,
    `PlayResY: ${COMBINED_HEIGHT}`,
    // No wrapping of its own: the lines are laid out already (layoutCard).
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Card,Noto Sans,${Math.round(layout.fontSize * ASS_SIZE_PER_EM)},${colour('FFFFFF')},${colour('FFFFFF')},${colour('000000')},${colour('000000')},${bold ? -1 : 0},0,0,0,100,100,0,0,1,0,0,5,60,60,50,1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    `Dialogue: 0,0:00:00.00,${end},Card,,0,0,0,,${body}`,
    '',
  ].join('\n');
}
