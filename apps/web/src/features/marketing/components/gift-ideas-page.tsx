import { ArrowRight, BookOpen, Gem, Home, Laptop, Shirt } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ContentPage } from '../../../components/ui/content-page.tsx';

const IDEAS = [
  {
    Icon: Gem,
    category: 'Jewelry',
    tint: 'bg-rose-50 text-rose-800',
    ideas: ['A pendant with their initial', 'Earrings for an anniversary', 'A watch for a graduation'],
    message: 'Tell the story of the day you knew they were the one — or the day they made you proud.',
  },
  {
    Icon: Laptop,
    category: 'Electronics',
    tint: 'bg-sky-50 text-sky-800',
    ideas: ['Headphones for the commuter', 'A camera for a first trip abroad', 'A smart speaker for a new home'],
    message: 'Record a playlist intro in your own voice, or the first photo you hope they will take.',
  },
  {
    Icon: Shirt,
    category: 'Fashion',
    tint: 'bg-violet-50 text-violet-800',
    ideas: ['A scarf for a long-distance friend', 'Sneakers for a marathon start', 'A jacket for a new job'],
    message: 'Film yourself wearing the matching one, or wish them luck on the day they first wear it.',
  },
  {
    Icon: Home,
    category: 'Home',
    tint: 'bg-emerald-50 text-emerald-800',
    ideas: ['A plant for a housewarming', 'A photo frame for grandparents', 'Cookware for a first flat'],
    message: 'Walk them through a family recipe, or say what “home” means now that they have their own.',
  },
  {
    Icon: BookOpen,
    category: 'Books',
    tint: 'bg-amber-50 text-amber-900',
    ideas: ['The novel that changed your mind', 'A cookbook from your trip together', 'A first picture book for a baby'],
    message: 'Read the opening page aloud, or tell them why this book made you think of them.',
  },
] as const;

const OCCASIONS = [
  ['Birthdays', 'Sing (badly) or gather the whole family for one video.'],
  ['Anniversaries', 'A voice note of your wedding vows, ten years later.'],
  ['Weddings', 'Guests who cannot travel can still give their toast.'],
  ['Graduation', 'A message to open on the first day of the new job.'],
  ['New baby', 'Grandparents reading a lullaby the baby will grow up hearing.'],
  ['Raksha Bandhan', 'A sibling story from childhood, told by both of you.'],
] as const;

export function GiftIdeasPage() {
  return (
    <ContentPage
      wide
      title="Gift ideas that say more"
      eyebrow="Inspiration"
      description="Gift ideas by category and occasion, each with a suggestion for the personal message that makes it unforgettable."
      intro="The most loved gifts are the ones with a story. Here are ideas from the categories GiftLens senders choose most, with a message to match."
    >
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {IDEAS.map(({ Icon, category, tint, ideas, message }) => (
          <li key={category} className="flex flex-col rounded-3xl border border-stone-200 bg-white p-6">
            <span className={`flex size-12 items-center justify-center rounded-2xl ${tint}`}>
              <Icon aria-hidden className="size-6" />
            </span>
            <h2 className="mt-4 text-xl font-semibold text-stone-900">{category}</h2>
            <ul className="mt-3 list-disc space-y-1.5 pl-5 text-[15px] text-stone-700">
              {ideas.map((idea) => (
                <li key={idea}>{idea}</li>
              ))}
            </ul>
            <p className="mt-4 rounded-2xl bg-stone-50 p-4 text-[15px] leading-relaxed text-stone-800">
              <strong className="font-semibold">Message idea:</strong> {message}
            </p>
          </li>
        ))}
      </ul>

      <section aria-labelledby="occasions-heading" className="mt-16">
        <h2 id="occasions-heading" className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
          By occasion
        </h2>
        <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {OCCASIONS.map(([occasion, tip]) => (
            <div key={occasion} className="rounded-2xl border border-stone-200 bg-white p-5">
              <dt className="font-semibold text-stone-900">{occasion}</dt>
              <dd className="mt-1 text-[15px] text-stone-700">{tip}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="mt-16 flex flex-col items-start gap-4 rounded-3xl bg-stone-900 p-8 text-white sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xl font-semibold">Found the gift? Give it a voice.</p>
        <Link
          to={paths.send.href()}
          className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-white px-6 font-semibold text-stone-900 hover:bg-brand-50"
        >
          Get Started <ArrowRight aria-hidden className="size-5" />
        </Link>
      </div>
    </ContentPage>
  );
}
