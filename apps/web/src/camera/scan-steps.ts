import { Camera, Hand, Package, Sun } from 'lucide-react';
import type { StepCard } from '../components/ui/step-cards.tsx';

/** How to photograph a gift: the gift link shows these three, the instructions screen all four. */
export const SCAN_STEPS: readonly StepCard[] = [
  { icon: Sun, title: 'Find good light', text: 'Place the gift in a well-lit area with a plain background.' },
  { icon: Package, title: 'Unwrap it', text: 'Remove wrapping or packaging that could interfere.' },
  { icon: Camera, title: 'Capture', text: 'Center the gift in the frame and tap capture.' },
];

export const HOLD_STEADY_STEP: StepCard = {
  icon: Hand,
  title: 'Hold steady',
  text: 'Hold steady while we process your scan.',
};
