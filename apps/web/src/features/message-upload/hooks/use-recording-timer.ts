import { useEffect, useState } from 'react';

/** Seconds recorded so far, ticking once a second while `running`; reset when `resetKey` changes. */
export function useRecordingTimer(running: boolean, resetKey: number): number {
  const [elapsed, setElapsed] = useState({ key: resetKey, seconds: 0 });
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(
      () =>
        setElapsed((e) =>
          e.key === resetKey ? { key: e.key, seconds: e.seconds + 1 } : { key: resetKey, seconds: 1 },
        ),
      1000,
    );
    return () => window.clearInterval(timer);
  }, [running, resetKey]);
  return elapsed.key === resetKey ? elapsed.seconds : 0;
}
