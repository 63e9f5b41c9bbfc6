import { lazy } from 'react';

/**
 * /staff: the staff console (features/staff), a second step behind this small route module. Imported from the
 * router directly, the console's many chunks would each be named in the entry chunk every page loads; from here
 * they are named only on /staff (decision 046: the entry is at the edge of /my-gifts' budget).
 */
export const Component = lazy(() =>
  import('../../features/staff/components/staff-console.tsx').then((m) => ({ default: m.StaffConsole })),
);
