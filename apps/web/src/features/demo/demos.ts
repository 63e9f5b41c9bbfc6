/** The demo gifts shipped with the app (public/demo-media, made by scripts/generate-web-assets.mjs). */
export interface Demo {
  id: string;
  giftImage: string;
  giftAlt: string;
  video: string;
  poster: string;
  captions: string;
  from: string;
  to: string;
}

export const DEMOS: readonly Demo[] = [
  {
    id: 'birthday',
    giftImage: '/demo-media/birthday-gift.jpg',
    giftAlt: 'The demo gift: a red box covered in colourful confetti, a gold ribbon and bow, and a tag reading “For Sam, Happy birthday!”',
    video: '/demo-media/birthday-message.mp4',
    poster: '/demo-media/birthday-poster.jpg',
    captions: '/demo-media/birthday-message.vtt',
    from: 'Maya',
    to: 'Sam',
  },
];

export const DEFAULT_DEMO_ID = 'birthday';

export function findDemo(id: string | undefined): Demo | undefined {
  return DEMOS.find((d) => d.id === id);
}
