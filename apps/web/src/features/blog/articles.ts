import type { ComponentType } from 'react';

export interface ArticleMeta {
  slug: string;
  title: string;
  description: string;
  /** ISO date of publication. */
  published: string;
  readMinutes: number;
  tag: string;
  /** Loads the article body on demand, so the blog index stays light. */
  load: () => Promise<{ default: ComponentType }>;
}

/** The five blog articles, each at /blog/{slug}, newest first. */
export const ARTICLES: readonly ArticleMeta[] = [
  {
    slug: 'how-to-add-a-personal-message-to-any-gift-you-send-online',
    title: 'How to add a personal message to any gift you send online',
    description:
      'Ordering a gift online usually means a printed card at best. Here is how to attach your own voice or video to any parcel, step by step.',
    published: '2026-11-12',
    readMinutes: 5,
    tag: 'Guide',
    load: () => import('./articles/personal-message-online.tsx'),
  },
  {
    slug: 'why-every-jewelry-gift-deserves-a-voice',
    title: 'Why every jewelry gift deserves a voice',
    description:
      'Jewelry is the most popular gift people attach a message to. A ring or pendant carries a story — here is why telling it out loud matters.',
    published: '2026-10-28',
    readMinutes: 4,
    tag: 'Gift guide',
    load: () => import('./articles/jewelry-voice.tsx'),
  },
  {
    slug: 'what-to-say-in-a-gift-message',
    title: 'What to say in a gift message (when you freeze in front of the camera)',
    description:
      'A simple structure, real examples for every relationship, and the small tricks that make a recorded message feel natural.',
    published: '2026-10-14',
    readMinutes: 6,
    tag: 'Guide',
    load: () => import('./articles/what-to-say.tsx'),
  },
  {
    slug: '5-surprising-occasions-for-a-personalized-message',
    title: '5 surprising occasions for a personalized message',
    description:
      'Birthdays and anniversaries are obvious. These five moments are where a recorded message lands even harder.',
    published: '2026-09-30',
    readMinutes: 4,
    tag: 'Ideas',
    load: () => import('./articles/surprising-occasions.tsx'),
  },
  {
    slug: 'for-d2c-brands-add-emotional-value',
    title: 'For D2C brands: add emotional value to every order sent as a gift',
    description:
      'Gift orders are a brand’s best marketing moment and its most neglected one. How personal messages change the unboxing.',
    published: '2026-09-16',
    readMinutes: 5,
    tag: 'For business',
    load: () => import('./articles/d2c-brands.tsx'),
  },
];

export function findArticle(slug: string | undefined): ArticleMeta | undefined {
  return ARTICLES.find((a) => a.slug === slug);
}

export function formatPublished(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
