import { Mic, Type, Video } from 'lucide-react';
import type { MessageTab } from '../hooks/use-message-step.ts';

const TABS: { id: MessageTab; label: string; icon: typeof Video }[] = [
  { id: 'video', label: 'Video Message', icon: Video },
  { id: 'audio', label: 'Voice Message', icon: Mic },
  { id: 'text', label: 'Text Message', icon: Type },
];

/** The three message types as a tab list (arrow keys move between them). */
export function MessageTabs({ tab, onSwitch }: { tab: MessageTab; onSwitch: (tab: MessageTab) => void }) {
  return (
    <div
      role="tablist"
      aria-label="Message type"
      className="grid grid-cols-3 gap-1 rounded-2xl bg-stone-100 p-1"
      onKeyDown={(e) => {
        if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
        const i = TABS.findIndex((t) => t.id === tab);
        const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
        if (!next) return;
        onSwitch(next.id);
        document.getElementById(`message-tab-${next.id}`)?.focus();
      }}
    >
      {TABS.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`message-tab-${id}`}
          aria-selected={tab === id}
          tabIndex={tab === id ? 0 : -1}
          aria-controls="message-tab-panel"
          onClick={() => onSwitch(id)}
          className={`flex min-h-11 flex-col items-center justify-center gap-1 rounded-xl px-1 py-2 text-xs font-semibold sm:flex-row sm:gap-2 sm:text-sm ${tab === id ? 'bg-white text-brand-700 shadow-sm' : 'text-stone-600 hover:text-stone-900'}`}
        >
          <Icon className="size-4" aria-hidden />
          {label}
        </button>
      ))}
    </div>
  );
}
