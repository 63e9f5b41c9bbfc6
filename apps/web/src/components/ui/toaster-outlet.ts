// sonner's Toaster, as its own lazily loaded module (lazy-toaster.tsx): the route budgets (decision 046) name
// it by this path, which stays the same from build to build.
export { Toaster } from 'sonner';
